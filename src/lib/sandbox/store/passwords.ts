/**
 * Users' passwords, stored as scrypt hashes that record their cost, so a hash made at another cost still verifies.
 */
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type { PasswordHash } from './types';
import { randomCredential } from './random';

/**
 * Sandbox passwords are test passwords (the fixtures' are published): hashing keeps the database from holding a
 * usable credential, it need not slow an offline attack on real ones. N = 2048 costs ~4 ms a sign-in instead of
 * ~45 ms (16384), on the walk's path and 9 times per reset. Hashes record their N, so older ones still verify.
 */
const SCRYPT = { N: 2048, r: 8, p: 1, keyLength: 32 } as const;

export function hashPassword(password: string): PasswordHash {
	const salt = randomBytes(16);
	const key = scryptSync(password, salt, SCRYPT.keyLength, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
	return { hash: `scrypt$${SCRYPT.N}$${salt.toString('base64')}$${key.toString('base64')}` };
}

/** Checked against when the login is unknown, so an unknown login takes as long as a wrong password. */
const DUMMY_PASSWORD_HASH = hashPassword(randomCredential()).hash;

/** Whether `password` matches the stored hash; with none stored (an unknown login), false in the same time. */
export function passwordMatches(password: string, stored: string | undefined): boolean {
	const [, n, salt, key] = (stored ?? DUMMY_PASSWORD_HASH).split('$');
	if (!n || !salt || !key) return false;
	const expected = Buffer.from(key, 'base64');
	const actual = scryptSync(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: SCRYPT.r, p: SCRYPT.p });
	const equal = timingSafeEqual(actual, expected);
	return stored !== undefined && equal;
}
