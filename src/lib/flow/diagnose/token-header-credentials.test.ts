import { describe, expect, it } from 'vitest';
import { diagnoseFlow } from '../diagnose-flow';
import { exchange, flow } from '../test-helpers';
import { unreadHeaderCredentials } from './token-header-credentials';
import { flowVerdict } from '../verdict';

const REDIRECT = 'https://shop.example.com/cb';
const LINK = `https://auth.example.com/sso/student?response_type=code&client_id=shop&redirect_uri=${encodeURIComponent(REDIRECT)}&country=uk`;
const URL_ = `https://accounts.example.com/oauth/token?grant_type=authorization_code&code=abc&client_id=shop&redirect_uri=${encodeURIComponent(REDIRECT)}`;
const FORMAT = JSON.stringify({ error: 'invalid_client', error_description: "The Authorization header's Bearer credentials must be base64(client_id:client_secret)." });
const WRONG_SECRET = JSON.stringify({ error: 'invalid_client', error_description: 'The client secret does not match the client ID.' });

const token = (authorization: string, body: string) =>
	exchange('token', { method: 'POST', url: URL_, headers: { Authorization: authorization, 'User-Agent': 'shop' } }, { status: 401, body });

describe('unreadHeaderCredentials', () => {
	it('holds for the secret alone after Bearer, seen or masked (then from the answer)', () => {
		expect(unreadHeaderCredentials(token('Bearer s3cret-value', WRONG_SECRET))).toBe(true);
		expect(unreadHeaderCredentials(token('Bearer ••••••zFGq', FORMAT))).toBe(true);
	});

	it('does not hold for a header of base64(id:secret) refused for its secret, nor a masked one whose answer names the secret', () => {
		expect(unreadHeaderCredentials(token(`Basic ${btoa('shop:wrong')}`, WRONG_SECRET))).toBe(false);
		expect(unreadHeaderCredentials(token('Basic ••••••zFGq', WRONG_SECRET))).toBe(false);
	});
});

describe('a token exchange with the secret alone after Bearer', () => {
	it("is the verdict's cause, with the credential format as the fix, not the secret issued", () => {
		const record = flow({ link: LINK, exchanges: [token('Bearer ••••••zFGq', FORMAT)] });
		const verdict = flowVerdict(record, diagnoseFlow(record));
		expect(verdict.cause).toMatch(/`Authorization: Bearer …` header that is not base64\(client_id:client_secret\)/);
		expect(verdict.fix).toMatch(/as parameters .* or the header `Authorization: Basic base64\(client_id:client_secret\)`/);
		// The exchange's own row names the same cause: no credentials could be read, not a wrong secret.
		expect(diagnoseFlow(record).annotations.exchanges[0]).toMatchObject({ rowId: 'token-invalid-client', causeId: 'missing-credentials' });
	});
});
