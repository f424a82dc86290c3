import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { storeWithUser } from './test-support';

describe('store: users', () => {
	it('creates a user with a 7-character alphanumeric sbid_number and keeps it on update', () => {
		const { store, user } = storeWithUser();
		expect(user.sbid_number).toMatch(/^[A-Za-z0-9]{7}$/);
		const updated = store.upsertUser({ login: 'a@example.com', password: 'new', verifications: [], deletion_requested: true });
		expect(updated).toEqual({ ...user, verifications: [], deletion_requested: true });
	});
	it('authenticates with the right password only', () => {
		const { store, user } = storeWithUser();
		expect(store.authenticateUser('a@example.com', 'pw')?.id).toBe(user.id);
		expect(store.authenticateUser('a@example.com', 'PW')).toBeUndefined();
		expect(store.authenticateUser('nobody@example.com', 'pw')).toBeUndefined();
	});
	it('still verifies a password hashed at another scrypt cost (a database from before the cost changed)', () => {
		const { store } = storeWithUser();
		const salt = randomBytes(16);
		const key = scryptSync('older-pw', salt, 32, { N: 16384, r: 8, p: 1 });
		store.upsertUser({ login: 'old@example.com', password: { hash: `scrypt$16384$${salt.toString('base64')}$${key.toString('base64')}` }, verifications: [] });
		expect(store.authenticateUser('old@example.com', 'older-pw')?.login).toBe('old@example.com');
		expect(store.authenticateUser('old@example.com', 'wrong')).toBeUndefined();
	});
	it('keeps an existing user\'s password when an update gives none, and refuses a new user without one', () => {
		const { store } = storeWithUser();
		store.upsertUser({ login: 'a@example.com', verifications: [], deletion_requested: true });
		expect(store.authenticateUser('a@example.com', 'pw')?.deletion_requested).toBe(true);
		expect(() => store.upsertUser({ login: 'new@example.com', verifications: [] })).toThrow(/needs a password/);
		expect(store.getUserByLogin('new@example.com')).toBeUndefined();
	});
	it('adds or replaces a verification', () => {
		const { store, user } = storeWithUser();
		const after = store.addVerification(user.id, 'student', '2100-01-01');
		expect(after.verifications).toEqual([{ supergroup: 'student', expires_on: '2100-01-01' }]);
	});
});
