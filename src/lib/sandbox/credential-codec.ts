/**
 * How a sandbox grant code or token names its database row without a lookup by digest (sandbox choice
 * 'credential-format'). Codes and tokens each have their own key, so one is never read as the other.
 *
 * A credential is 32 bytes, base64url (43 characters): an 8-byte selector, then a 24-byte verifier (192 random
 * bits). With D = SHA-256(key ‖ verifier), the selector is the row id XOR D[0..8], and the row stores D[8..32] as
 * its check. Finding a credential is then a lookup by row id, and issuing one appends a row: an index of random
 * digests cost the token endpoint a random index page read per code and two written per exchange, most of its
 * time under load.
 *
 * The key (random, kept in the database) hides the id: without it the selector's bits are as random as the
 * verifier's, so a credential tells nothing about how many were issued. One whose selector or verifier was
 * changed names another row, or none, and fails the check: only the verifier's digest proves it.
 */
import { hash, timingSafeEqual } from 'node:crypto';

export const CREDENTIAL_BYTES = 32;
export const VERIFIER_BYTES = 24;
const SELECTOR_BYTES = CREDENTIAL_BYTES - VERIFIER_BYTES;
/** 43 characters hold 258 bits: the last character's two spare bits must be 0, so each credential has one spelling. */
const CREDENTIAL_PATTERN = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;
/** Row ids above 2^53 - 1 cannot be held exactly in a number; SQLite never reaches them by counting up. */
const MAX_ROW_ID = Number.MAX_SAFE_INTEGER;
const TWO_32 = 2 ** 32;

export interface CredentialCodec {
	/**
	 * Starts a credential with this verifier: `check` is what its row stores, `encode` gives the credential once
	 * the row's id is known (one digest serves both).
	 */
	mint(verifier: Buffer): { check: Buffer; encode(id: number): string };
	/** The row a credential names and the check that row must hold; undefined when the text cannot be one. */
	decode(text: string): { id: number; check: Buffer } | undefined;
}

export function credentialCodec(key: Buffer): CredentialCodec {
	const input = Buffer.alloc(key.length + VERIFIER_BYTES);
	key.copy(input);
	function keyedDigest(verifier: Buffer): Buffer {
		verifier.copy(input, key.length);
		const digest = hash('sha256', input, 'buffer') as Buffer;
		input.fill(0, key.length);
		return digest;
	}
	return {
		mint(verifier) {
			if (verifier.length !== VERIFIER_BYTES) throw new RangeError(`a verifier is ${VERIFIER_BYTES} bytes, not ${verifier.length}`);
			const digest = keyedDigest(verifier);
			return {
				check: digest.subarray(SELECTOR_BYTES),
				encode(id) {
					if (!Number.isSafeInteger(id) || id < 1) throw new RangeError(`a credential's row id must be a positive integer, not ${id}`);
					const bytes = Buffer.alloc(CREDENTIAL_BYTES);
					bytes.writeUInt32BE((Math.floor(id / TWO_32) ^ digest.readUInt32BE(0)) >>> 0, 0);
					bytes.writeUInt32BE(((id % TWO_32) ^ digest.readUInt32BE(4)) >>> 0, 4);
					verifier.copy(bytes, SELECTOR_BYTES);
					return bytes.toString('base64url');
				}
			};
		},
		decode(text) {
			if (!CREDENTIAL_PATTERN.test(text)) return undefined;
			const bytes = Buffer.from(text, 'base64url');
			const digest = keyedDigest(bytes.subarray(SELECTOR_BYTES));
			const high = (bytes.readUInt32BE(0) ^ digest.readUInt32BE(0)) >>> 0;
			const low = (bytes.readUInt32BE(4) ^ digest.readUInt32BE(4)) >>> 0;
			const id = high * TWO_32 + low;
			if (id < 1 || id > MAX_ROW_ID) return undefined;
			return { id, check: digest.subarray(SELECTOR_BYTES) };
		}
	};
}

/** Whether a stored check matches a decoded credential's, in time independent of where they differ. */
export function checksMatch(stored: Buffer, presented: Buffer): boolean {
	return stored.length === presented.length && timingSafeEqual(stored, presented);
}
