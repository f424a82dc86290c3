import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from '.';
import { client, storeWithUser } from './test-support';

describe('store: shared transactions (group commit)', () => {
	it('runs the calls of one turn together, each resolving to its own result once committed', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'store-shared-'));
		try {
			const path = join(dir, 'sandbox.db');
			const store = openStore(path);
			store.upsertClient(client);
			const user = store.upsertUser({ login: 'a@example.com', password: 'pw', verifications: [] });
			const codes = Array.from({ length: 5 }, () => store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' }));
			const exchanges = codes.map((code) => store.sharedTransaction(() => store.exchangeCode(code, 'c1', 'https://app.example/cb')));
			const replay = store.sharedTransaction(() => store.exchangeCode(codes[0]!, 'c1', 'https://app.example/cb'));
			const results = await Promise.all(exchanges);
			expect(results.every((r) => r.ok)).toBe(true);
			expect(await replay).toEqual({ ok: false, cause: 'used' });
			// Committed: another connection sees every token issued.
			const reader = new Database(path, { readonly: true });
			expect(reader.prepare('SELECT COUNT(*) AS n FROM issued_tokens').get()).toEqual({ n: 10 });
			reader.close();
			store.close();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
	it('undoes and rejects only the call that throws', async () => {
		const { store, user } = storeWithUser();
		const kept = store.sharedTransaction(() => store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' }));
		const failing = store.sharedTransaction(() => {
			store.addVerification(user.id, 'graduate', '2099-01-01');
			throw new Error('a bug');
		});
		await expect(failing).rejects.toThrow('a bug');
		expect(store.exchangeCode(await kept, 'c1', 'https://app.example/cb').ok).toBe(true);
		expect(store.getUser(user.id)?.verifications.map((v) => v.supergroup)).toEqual(['student']);
	});
});
