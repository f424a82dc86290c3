import { describe, expect, it } from 'vitest';
import { splitRedirectUri } from './walk';

describe('splitRedirectUri', () => {
	it('splits the registered part from extra parameters', () => {
		expect(splitRedirectUri('http://localhost:3000/callback?shop=12&lang=en')).toEqual({
			base: 'http://localhost:3000/callback',
			extras: [
				['shop', '12'],
				['lang', 'en']
			]
		});
	});
	it('keeps a URI without a query whole', () => {
		expect(splitRedirectUri('https://app.example/cb')).toEqual({ base: 'https://app.example/cb', extras: [] });
	});
});
