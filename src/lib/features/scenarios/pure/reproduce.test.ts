import { describe, expect, it } from 'vitest';
import { SCENARIOS } from './library';
import { scenariosReproducing } from './reproduce';

const ids = (...args: Parameters<typeof scenariosReproducing>) => scenariosReproducing(...args).map((s) => s.id);

describe('scenariosReproducing', () => {
	it('names the scenario of the exact row and cause', () => {
		expect(ids([{ rowId: 'token-invalid-grant', causeId: 'used' }], false)).toEqual(['code-exchanged-twice']);
		expect(ids([{ rowId: 'me-forbidden', causeId: 'missing-user-agent' }], false)).toEqual(['me-no-user-agent']);
	});

	it('falls back to every scenario of the row when no scenario shows that cause', () => {
		const all = SCENARIOS.filter((s) => s.expected.row === 'token-invalid-grant').map((s) => s.id);
		expect(all.length).toBeGreaterThan(1);
		expect(ids([{ rowId: 'token-invalid-grant', causeId: 'no-such-cause' }], false)).toEqual(all);
		expect(ids([{ rowId: 'token-invalid-grant' }], false)).toEqual(all);
	});

	it('puts the cancel scenario first for a cancelled redirect, and lists each scenario once', () => {
		const used = { rowId: 'token-invalid-grant' as const, causeId: 'used' };
		expect(ids([used, used], true)).toEqual(['user-cancels', 'code-exchanged-twice']);
	});

	it('lists nothing for successes or a run without errors', () => {
		expect(ids([{}, {}], false)).toEqual([]);
	});

	it('finds a scenario for every row and cause the library claims to show', () => {
		for (const s of SCENARIOS) {
			const { row, cause } = s.expected;
			if (row === 'success') continue;
			const found = row === 'cancel' ? ids([], true) : ids([{ rowId: row, causeId: cause }], false);
			expect(found, s.id).toContain(s.id);
		}
	});
});
