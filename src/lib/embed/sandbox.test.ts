import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type EmbeddedSandbox } from './sandbox';

const CLIENT = { client_id: 'embedded-flows-app', client_secret: 'embedded-flows-secret', redirect_uris: ['http://127.0.0.1:9/callback'], countries: ['uk'] };

let sandbox: EmbeddedSandbox;
beforeAll(async () => {
	sandbox = await startSandbox();
	await sandbox.clients.register(CLIENT);
});
afterAll(() => sandbox?.close());

/** A GET with no header but Host and Authorization (Node's fetch would add a User-Agent). */
function bareGet(url: string, token: string): Promise<number> {
	return new Promise((resolve, reject) => {
		const sent = request(url, { headers: { authorization: `Bearer ${token}` } }, (answer) => {
			answer.resume();
			answer.on('end', () => resolve(answer.statusCode ?? 0));
		});
		sent.on('error', reject);
		sent.end();
	});
}

describe('flows() of the embedded sandbox', () => {
	it('diagnoses an exchange of an unknown code and a me.json without User-Agent with the interface\'s rows', async () => {
		const query = new URLSearchParams({ grant_type: 'authorization_code', code: 'no-such-code', redirect_uri: CLIENT.redirect_uris[0]!, client_id: CLIENT.client_id, client_secret: CLIENT.client_secret });
		expect((await fetch(`${sandbox.accountsUrl}/oauth/token?${query}`, { method: 'POST' })).status).toBe(400);
		const { code } = await sandbox.authorize({ client_id: CLIENT.client_id, login: 'student@example.com', supergroup: 'student' });
		const query2 = new URLSearchParams({ ...Object.fromEntries(query), code: code! });
		const token = ((await (await fetch(`${sandbox.accountsUrl}/oauth/token?${query2}`, { method: 'POST' })).json()) as { access_token: string }).access_token;
		expect(await bareGet(`${sandbox.accountsUrl}/api/v3/me.json`, token)).toBe(403);

		const flows = await sandbox.flows();
		const unknownCode = flows.find((f) => f.steps.some((s) => s.step === 'token' && s.response?.status === 400));
		expect(unknownCode?.steps.map((s) => s.step)).toEqual(['token']);
		expect(unknownCode?.steps[0]!.diagnosis).toMatchObject({ outcome: 'error', rowId: 'token-invalid-grant', causeId: 'unknown-code' });
		expect(unknownCode?.verdict).toMatchObject({ severity: 'error', reference: { kind: 'row', rowId: 'token-invalid-grant' }, exchange: { n: 1 } });
		expect(unknownCode?.verdict.fix).not.toBe('');

		const noUserAgent = flows.find((f) => f.steps.some((s) => s.step === 'me'));
		expect(noUserAgent?.steps.map((s) => s.step)).toEqual(['token', 'me']);
		expect(noUserAgent?.steps[1]!.diagnosis).toMatchObject({ outcome: 'error', rowId: 'me-forbidden', causeId: 'missing-user-agent' });
		expect(noUserAgent?.verdict).toMatchObject({ severity: 'error', reference: { rowId: 'me-forbidden' }, exchange: { n: 2 } });
		expect(noUserAgent?.verdict.fix).toMatch(/User-Agent/);
		// requests() is as before: every request, masked, no flows.
		expect((await sandbox.requests()).map((r) => r.request.url.replace(/\?.*/, '').replace(sandbox.accountsUrl, ''))).toEqual(['/oauth/token', '/oauth/token', '/api/v3/me.json']);
		expect(JSON.stringify(flows)).not.toContain(token);
		expect(JSON.stringify(flows)).not.toContain(CLIENT.client_secret);
	});
});
