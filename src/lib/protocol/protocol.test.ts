import { describe, expect, it } from 'vitest';
import {
	ERROR_TABLES,
	SANDBOX_CHOICES,
	allErrorRows,
	checkCountry,
	isSupergroup,
	meErrorRowFor,
	tokenErrorRowFor
} from './index';
import { MeResponse, TokenResponse } from './schemas';

describe('error tables', () => {
	it('has every row of 7.1, 7.2 and 7.3 once, with unique ids', () => {
		expect(ERROR_TABLES.map((t) => t.rows.length)).toEqual([3, 4, 4]);
		const ids = allErrorRows().map((r) => r.id);
		expect(new Set(ids).size).toBe(ids.length);
	});
	it('gives every cause a fix', () => {
		for (const row of allErrorRows()) {
			expect(row.causes.length).toBeGreaterThan(0);
			for (const cause of row.causes) expect(cause.fix.length).toBeGreaterThan(10);
		}
	});
	it('finds 7.2 rows by error and 7.3 rows by status', () => {
		expect(tokenErrorRowFor('invalid_client')?.status).toBe(401);
		expect(tokenErrorRowFor('server_error')).toBeUndefined();
		expect(meErrorRowFor(403)?.id).toBe('me-forbidden');
		expect(meErrorRowFor(500)).toBeUndefined();
	});
});

describe('sandbox choices', () => {
	it('have unique ids', () => {
		const ids = SANDBOX_CHOICES.map((c) => c.id);
		expect(new Set(ids).size).toBe(ids.length);
	});
});

describe('countries (4.1)', () => {
	it('accepts uk and ISO alpha-2 codes', () => {
		expect(checkCountry('uk').ok).toBe(true);
		expect(checkCountry('fr').ok).toBe(true);
	});
	it('suggests uk for gb', () => {
		expect(checkCountry('gb')).toEqual({ ok: false, reason: 'gb-not-uk', suggestion: 'uk' });
	});
	it('rejects codes that are not ISO alpha-2', () => {
		expect(checkCountry('xx').ok).toBe(false);
		expect(checkCountry('fra').ok).toBe(false);
		expect(checkCountry('').ok).toBe(false);
	});
	it('flags upper case', () => {
		expect(checkCountry('FR')).toEqual({ ok: false, reason: 'not-lower-case', suggestion: 'fr' });
	});
});

describe('schemas', () => {
	it('accepts the token response of 2.3 and nothing more', () => {
		const ok = { access_token: 'a', token_type: 'Bearer', expires_in: 2419199, refresh_token: 'r', created_at: 1 };
		expect(TokenResponse.safeParse(ok).success).toBe(true);
		expect(TokenResponse.safeParse({ ...ok, scope: '' }).success).toBe(false);
		expect(TokenResponse.safeParse({ ...ok, token_type: 'bearer' }).success).toBe(false);
	});
	it('accepts either verification key, not both, and checks sbid_number', () => {
		const v = { expires_on: '2030-01-01' };
		expect(MeResponse.safeParse({ sbid_number: 'AB12CD3', verifications: [{ supergroup: 'student', ...v }] }).success).toBe(true);
		expect(MeResponse.safeParse({ sbid_number: 'AB12CD3', verifications: [{ group: 'key-worker', ...v }] }).success).toBe(true);
		expect(MeResponse.safeParse({ sbid_number: 'AB12CD3', verifications: [{ group: 'x', ...v }] }).success).toBe(false);
		expect(MeResponse.safeParse({ sbid_number: 'AB12CD', verifications: [] }).success).toBe(false);
		expect(isSupergroup('key-worker')).toBe(true);
		expect(isSupergroup('keyworker')).toBe(false);
	});
});
