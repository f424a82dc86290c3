import { afterEach, describe, expect, it, vi } from 'vitest';
import { withOutcome, type SandboxAccess } from './sandbox-control';

const access: SandboxAccess = { accountsUrl: 'http://localhost:3002', workspaceKey: 'key', adminToken: null };

/** The control API as the check calls it: each call recorded; setting a rule answers `setStatus`. */
function fakeSandbox(setStatus = 201) {
	const calls: string[] = [];
	vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
		const path = new URL(url).pathname;
		calls.push(`${init.method} ${path} ${init.body ?? ''}`);
		return new Response(JSON.stringify(path === '/sandbox/outcomes' && setStatus !== 201 ? { error: 'refused' } : {}), { status: path === '/sandbox/outcomes' ? setStatus : 200 });
	});
	return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe('a check\'s one-shot outcome rule', () => {
	const cleared = 'POST /sandbox/outcomes/clear {"client_id":"app","outcome":"me-404"}';

	it('is cleared after the check, however the check ends: a result, or a throw', async () => {
		const calls = fakeSandbox();
		expect(await withOutcome(access, 'app', 'me-404', async () => ({ judged: true }))).toEqual({ judged: true });
		expect(calls).toEqual(['POST /sandbox/outcomes {"client_id":"app","outcome":"me-404"}', cleared]);
		calls.length = 0;
		await expect(withOutcome(access, 'app', 'me-404', async () => { throw new Error('the page timed out'); })).rejects.toThrow('the page timed out');
		expect(calls.at(-1)).toBe(cleared);
	});

	it('says why when the sandbox refuses it, without running the check; a check without a rule sets nothing', async () => {
		const calls = fakeSandbox(400);
		const use = vi.fn(async () => ({}));
		expect(await withOutcome(access, 'app', 'me-404', use)).toMatch(/could not set the outcome `me-404`: refused/);
		expect(use).not.toHaveBeenCalled();
		calls.length = 0;
		await withOutcome(access, 'app', null, use);
		expect(calls).toEqual([]);
	});
});
