import { describe, expect, it } from 'vitest';
import { splitOffPieces } from './redirect-split';

const AUTH = 'https://auth.example.com/sso/student?response_type=code&client_id=shop';

describe('splitOffPieces', () => {
	it('names the pieces an unencoded redirect URI lost to the link, when the exchange sends the whole redirect URI', () => {
		const link = `${AUTH}&redirect_uri=http://localhost:8080/callback?lang=en&next=/home&country=uk`;
		expect(splitOffPieces(link, 'http://localhost:8080/callback?lang=en&next=/home')).toEqual(['next=/home']);
	});

	it('is null when the exchange differs otherwise, or the link was encoded', () => {
		const link = `${AUTH}&redirect_uri=http://localhost:8080/callback?lang=en&next=/home&country=uk`;
		expect(splitOffPieces(link, 'http://127.0.0.1:8080/callback?lang=en&next=/home')).toBeNull();
		expect(splitOffPieces(link, 'http://localhost:8080/callback')).toBeNull();
		const encoded = `${AUTH}&redirect_uri=${encodeURIComponent('http://localhost:8080/callback?lang=en')}&next=/home&country=uk`;
		expect(splitOffPieces(encoded, 'http://localhost:8080/callback?lang=en&next=/home')).toBeNull();
	});
});
