import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '.';
import { USED_OUTCOMES_KEPT } from './outcome-rules';
import { client, storeWithUser } from './test-support';

function twoWorkspaces() {
	const { store } = storeWithUser();
	store.upsertClient({ ...client, client_id: 'c1-other' });
	const { workspace: other } = store.createWorkspace({ fixtures: 'empty' });
	other.upsertClient({ ...client, client_id: 'c2' });
	return { store, other };
}

describe('store: outcome rules', () => {
	it('holds one pending rule per stage; setting another of the stage replaces it', () => {
		const { store } = storeWithUser();
		store.setOutcome('c1', 'token-invalid-grant');
		store.setOutcome('c1', 'me-404');
		store.setOutcome('c1', 'token-invalid-client');
		const { pending, used } = store.outcomeRules('c1');
		expect(pending.map((r) => [r.stage, r.outcome]).sort()).toEqual([
			['me', 'me-404'],
			['token', 'token-invalid-client']
		]);
		expect(used).toEqual([]);
		expect(Math.abs(Date.parse(pending[0]!.setAt) - store.now().getTime())).toBeLessThan(5000);
	});

	it('is taken once by its stage, then listed as used with when and by which request', () => {
		const { store } = storeWithUser();
		store.setOutcome('c1', 'me-403');
		expect(store.takeOutcome('c1', 'token', 'POST /oauth/token')).toBeNull();
		expect(store.pendingOutcome('c1', 'me')).toBe('me-403');
		expect(store.takeOutcome('c1', 'me', 'GET /api/v3/me.json')).toBe('me-403');
		expect(store.takeOutcome('c1', 'me', 'GET /api/v3/me.json')).toBeNull();
		expect(store.pendingOutcome('c1', 'me')).toBeNull();
		const { pending, used } = store.outcomeRules('c1');
		expect(pending).toEqual([]);
		expect(used).toEqual([{ outcome: 'me-403', stage: 'me', setAt: expect.any(String), usedAt: expect.any(String), request: 'GET /api/v3/me.json' }]);
	});

	it('times rules on the workspace clock', () => {
		const { store } = storeWithUser();
		store.setClock(new Date('2031-05-06T07:08:09Z'));
		store.setOutcome('c1', 'authorise-cancel');
		store.advanceClock(60);
		store.takeOutcome('c1', 'authorise', 'test');
		const [used] = store.outcomeRules('c1').used;
		expect(used!.setAt.slice(0, 16)).toBe('2031-05-06T07:08');
		expect(used!.usedAt.slice(0, 16)).toBe('2031-05-06T07:09');
	});

	it('keeps the newest used rules only, newest first', () => {
		const { store } = storeWithUser();
		for (let i = 0; i < USED_OUTCOMES_KEPT + 3; i++) {
			store.setOutcome('c1', 'me-401');
			store.takeOutcome('c1', 'me', `request ${i}`);
		}
		const { used } = store.outcomeRules('c1');
		expect(used).toHaveLength(USED_OUTCOMES_KEPT);
		expect(used[0]!.request).toBe(`request ${USED_OUTCOMES_KEPT + 2}`);
		expect(used.at(-1)!.request).toBe('request 3');
	});

	it('clears all pending rules of a client, or one outcome; used ones stay', () => {
		const { store } = storeWithUser();
		store.setOutcome('c1', 'me-404');
		store.takeOutcome('c1', 'me', 'first');
		store.setOutcome('c1', 'me-401');
		store.setOutcome('c1', 'token-invalid-grant');
		store.setOutcome('c1', 'authorise-cancel');
		expect(store.clearOutcomes('c1', 'me-404')).toBe(0);
		expect(store.clearOutcomes('c1', 'me-401')).toBe(1);
		expect(store.outcomeRules('c1').pending.map((r) => r.outcome).sort()).toEqual(['authorise-cancel', 'token-invalid-grant']);
		expect(store.clearOutcomes('c1')).toBe(2);
		expect(store.takeOutcome('c1', 'token', 'x')).toBeNull();
		expect(store.outcomeRules('c1')).toEqual({ pending: [], used: [expect.objectContaining({ outcome: 'me-404', request: 'first' })] });
	});

	it('touches no other client and no other workspace', () => {
		const { store, other } = twoWorkspaces();
		store.setOutcome('c1', 'me-404');
		other.setOutcome('c2', 'me-404');
		expect(store.takeOutcome('c1-other', 'me', 'x')).toBeNull();
		// A workspace sees, takes and clears only its own clients' rules.
		expect(store.takeOutcome('c2', 'me', 'x')).toBeNull();
		expect(store.outcomeRules('c2').pending).toEqual([]);
		expect(store.clearOutcomes('c2')).toBe(0);
		expect(other.takeOutcome('c1', 'me', 'x')).toBeNull();
		expect(() => store.setOutcome('c2', 'me-401')).toThrow(/no client c2/);
		expect(other.pendingOutcome('c2', 'me')).toBe('me-404');
		expect(store.pendingOutcome('c1', 'me')).toBe('me-404');
	});

	it('goes with its workspace: a clear (reset) and a removal forget the rules', () => {
		const { store, other } = twoWorkspaces();
		store.setOutcome('c1', 'me-404');
		other.setOutcome('c2', 'me-404');
		other.clear();
		expect(other.outcomeRules('c2')).toEqual({ pending: [], used: [] });
		expect(store.pendingOutcome('c1', 'me')).toBe('me-404');
		store.deleteWorkspace(other.id);
		const again = store.createWorkspace({ fixtures: 'empty' }).workspace;
		again.upsertClient({ ...client, client_id: 'c2' });
		expect(again.pendingOutcome('c2', 'me')).toBeNull();
	});

	it('a rolled-back transaction takes nothing', () => {
		const { store } = storeWithUser();
		store.setOutcome('c1', 'token-invalid-client');
		expect(() =>
			store.transaction(() => {
				expect(store.takeOutcome('c1', 'token', 'x')).toBe('token-invalid-client');
				throw new Error('rolled back');
			})
		).toThrow('rolled back');
		expect(store.pendingOutcome('c1', 'token')).toBe('token-invalid-client');
		expect(store.outcomeRules('c1').used).toEqual([]);
	});

	it('survives a restart', () => {
		const dir = mkdtempSync(join(tmpdir(), 'outcomes-'));
		try {
			const path = join(dir, 'sandbox.db');
			const first = openStore(path);
			first.upsertClient(client);
			first.setOutcome('c1', 'me-group-key');
			first.setOutcome('c1', 'authorise-cancel');
			first.takeOutcome('c1', 'authorise', 'before');
			first.close();
			const second = openStore(path);
			expect(second.pendingOutcome('c1', 'me')).toBe('me-group-key');
			expect(second.outcomeRules('c1').used.map((r) => r.request)).toEqual(['before']);
			second.close();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
