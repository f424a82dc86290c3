import { beforeEach, describe, expect, it, vi } from 'vitest';
import { exchange, run } from '$lib/features/runs/pure/test-helpers';

/** The workspace the run's client is in, as client-workspace.ts would find it; its clock is set back. */
const clientWorkspace = vi.fn();
vi.mock('../../platform/client-workspace', () => ({ clientWorkspace: (clientId: string | undefined) => clientWorkspace(clientId) }));

const { runAsSeenBy, runOwner } = await import('./access');

const REDIRECT = 'https://shop.example.com/cb';
const LINK = `http://localhost:4174/sso/student?response_type=code&client_id=shop~ws1&redirect_uri=${encodeURIComponent(REDIRECT)}`;
/** The code reached the callback at 10:00 on the workspace's clock, which is months behind real time. */
const walked = run({
	target: { kind: 'sandbox', authUrl: 'http://localhost:4174', accountsUrl: 'http://localhost:4175' },
	link: LINK,
	callback: { url: `${REDIRECT}?code=c-live-1`, receivedAt: '2026-01-01T10:00:00.000Z' },
	exchanges: [exchange('arrival', { url: `${REDIRECT}?code=c-live-1` }, { status: 200 })]
});

describe('runAsSeenBy', () => {
	beforeEach(() => clientWorkspace.mockReset());

	it("judges a code's life on the clock of the workspace the run's client is in", async () => {
		clientWorkspace.mockResolvedValue({ now: () => new Date('2026-01-01T10:30:00.000Z') });
		const seen = await runAsSeenBy(walked, runOwner('owner-session'), 'someone-else');
		expect(clientWorkspace).toHaveBeenCalledWith('shop~ws1');
		expect(JSON.stringify(seen)).not.toContain('c-live-1');
	});

	it('shows a code past its two hours on that clock', async () => {
		clientWorkspace.mockResolvedValue({ now: () => new Date('2026-01-01T12:30:00.000Z') });
		expect(JSON.stringify(await runAsSeenBy(walked, runOwner('owner-session'), 'someone-else'))).toContain('c-live-1');
	});

	it('shows the owner every code', async () => {
		clientWorkspace.mockResolvedValue({ now: () => new Date('2026-01-01T10:30:00.000Z') });
		expect(JSON.stringify(await runAsSeenBy(walked, runOwner('owner-session'), 'owner-session'))).toContain('c-live-1');
	});
});
