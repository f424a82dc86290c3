import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checksMatch, credentialCodec, VERIFIER_BYTES } from './credential-codec';

const codec = credentialCodec(randomBytes(32));

describe('credential codec', () => {
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

	it('a credential changed in any bit is refused: it names no row, or a row whose check it fails', () => {
		// Rows 1..64, as a table would hold them: id -> stored check.
		const rows = new Map<number, Buffer>();
		const credentials: string[] = [];
		for (let id = 1; id <= 64; id++) {
			const minted = codec.mint(randomBytes(VERIFIER_BYTES));
			rows.set(id, minted.check);
			credentials.push(minted.encode(id));
		}
		const accepted = (text: string) => {
			const decoded = codec.decode(text);
			const stored = decoded && rows.get(decoded.id);
			return stored !== undefined && checksMatch(stored, decoded!.check);
		};
		let namedAnotherRow = 0;
		let neighbours = 0;
		for (const id of [1, 42, 64]) {
			const credential = credentials[id - 1]!;
			for (let bit = 0; bit < 8; bit++) if (rows.has(id ^ (1 << bit))) neighbours++;
			expect(accepted(credential)).toBe(true);
			const bytes = Buffer.from(credential, 'base64url');
			for (let bit = 0; bit < bytes.length * 8; bit++) {
				const changed = Buffer.from(bytes);
				changed[bit >> 3]! ^= 0x80 >> (bit & 7);
				const text = changed.toString('base64url');
				expect(accepted(text), `bit ${bit}`).toBe(false);
				if (rows.has(codec.decode(text)?.id ?? 0)) namedAnotherRow++;
			}
		}
		// Each flip of a selector bit names the id with that bit flipped: where that row exists, the check refuses it.
		expect(namedAnotherRow).toBe(neighbours);
		expect(neighbours).toBe(11);
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
