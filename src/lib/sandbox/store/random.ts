/**
 * Randomness and digests for credentials: random bytes drawn from the CSPRNG in blocks, and comparisons in time
 * independent of where two values differ.
 */
import { hash, randomFillSync, timingSafeEqual } from 'node:crypto';
import { CREDENTIAL_BYTES } from '../credential-codec';

/** Random bytes drawn in blocks: one call into the CSPRNG per 128 credentials instead of one each. */
const randomPool = Buffer.alloc(128 * CREDENTIAL_BYTES);
let randomPoolOffset = randomPool.length;

/** `length` random bytes; each byte of the pool is used once, then wiped. */
export function takeRandom(length: number): Buffer {
	if (randomPoolOffset + length > randomPool.length) {
		randomFillSync(randomPool);
		randomPoolOffset = 0;
	}
	const end = randomPoolOffset + length;
	const bytes = Buffer.from(randomPool.subarray(randomPoolOffset, end));
	randomPool.fill(0, randomPoolOffset, end);
	randomPoolOffset = end;
	return bytes;
}

/** 256 bits of randomness, URL-safe: sign-in sessions, their CSRF tokens, authorisation flows. */
export function randomCredential(): string {
	return takeRandom(CREDENTIAL_BYTES).toString('base64url');
}

export function digest(value: string): Buffer {
	return hash('sha256', value, 'buffer');
}

/** Compares two strings in time independent of where they differ (equal-length digests). */
export function constantTimeEqual(a: string, b: string): boolean {
	return timingSafeEqual(digest(a), digest(b));
}
