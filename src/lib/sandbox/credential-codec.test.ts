import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checksMatch, credentialCodec, VERIFIER_BYTES } from './credential-codec';

const codec = credentialCodec(randomBytes(32));

describe('token codec', () => {
	it('decodes a token to the row id it was made for and the check stored with it', () => {
		for (const id of [1, 2, 255, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 7, Number.MAX_SAFE_INTEGER]) {
			const minted = codec.mint(randomBytes(VERIFIER_BYTES));
			const token = minted.encode(id);
			expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
			const decoded = codec.decode(token)!;
			expect(decoded.id).toBe(id);
			expect(checksMatch(minted.check, decoded.check)).toBe(true);
		}
	});

	it('hides the row id: consecutive ids give unrelated selectors, and another key reads another id', () => {
		const verifier = randomBytes(VERIFIER_BYTES);
		const first = Buffer.from(codec.mint(verifier).encode(1), 'base64url');
		const second = Buffer.from(codec.mint(verifier).encode(2), 'base64url');
		// Same verifier, same mask: only the id's bits differ, and those are not readable without the key.
		expect(first.subarray(0, 8).equals(Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]))).toBe(false);
		expect(first.subarray(8).equals(second.subarray(8))).toBe(true);
		const other = credentialCodec(randomBytes(32)).decode(codec.mint(verifier).encode(1));
		expect(other?.id).not.toBe(1);
	});

	it('a token changed anywhere fails the check of the row it names', () => {
		const minted = codec.mint(randomBytes(VERIFIER_BYTES));
		const stored = minted.check;
		const token = Buffer.from(minted.encode(42), 'base64url');
		for (let byte = 0; byte < token.length; byte++) {
			const changed = Buffer.from(token);
			changed[byte]! ^= 0x01;
			const decoded = codec.decode(changed.toString('base64url'));
			if (decoded?.id === 42) expect(checksMatch(stored, decoded.check), `byte ${byte}`).toBe(false);
		}
	});

	it('refuses text that is not exactly one spelling of 32 bytes', () => {
		const token = codec.mint(randomBytes(VERIFIER_BYTES)).encode(7);
		expect(codec.decode(token)?.id).toBe(7);
		expect(codec.decode(token.slice(0, -1))).toBeUndefined();
		expect(codec.decode(`${token}A`)).toBeUndefined();
		expect(codec.decode(`${token.slice(0, -1)}+`)).toBeUndefined();
		expect(codec.decode(`${token.slice(0, 10)}=${token.slice(11)}`)).toBeUndefined();
		// The last character's two spare bits set: the same bytes, spelt differently.
		const last = token.at(-1)!;
		const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
		const respelt = token.slice(0, -1) + alphabet[alphabet.indexOf(last) + 1];
		expect(Buffer.from(respelt, 'base64url').equals(Buffer.from(token, 'base64url'))).toBe(true);
		expect(codec.decode(respelt)).toBeUndefined();
	});

	it('refuses to make a token for an id it could not read back', () => {
		const minted = codec.mint(randomBytes(VERIFIER_BYTES));
		for (const id of [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1]) expect(() => minted.encode(id)).toThrow(RangeError);
		expect(() => codec.mint(randomBytes(16))).toThrow(RangeError);
	});

	it('compares checks of any length without throwing', () => {
		expect(checksMatch(Buffer.alloc(24), Buffer.alloc(23))).toBe(false);
		expect(checksMatch(Buffer.alloc(24, 1), Buffer.alloc(24, 1))).toBe(true);
	});
});
