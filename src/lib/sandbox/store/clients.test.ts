import { describe, expect, it } from 'vitest';
import { client, storeWithUser } from './test-support';

describe('store: clients', () => {
	it('authenticates a client secret and tells unknown from wrong', () => {
		const { store } = storeWithUser();
		expect(store.authenticateClient('c1', 's1').ok).toBe(true);
		expect(store.authenticateClient('c1', 's2')).toEqual({ ok: false, cause: 'wrong-secret' });
		expect(store.authenticateClient('c2', 's1')).toEqual({ ok: false, cause: 'unknown-client' });
	});
	it('takes a changed secret at once, and refuses the old one', () => {
		const { store } = storeWithUser();
		expect(store.authenticateClient('c1', 's1').ok).toBe(true);
		store.upsertClient({ ...client, client_secret: 's2' });
		expect(store.authenticateClient('c1', 's2').ok).toBe(true);
		expect(store.authenticateClient('c1', 's1')).toEqual({ ok: false, cause: 'wrong-secret' });
	});
});
