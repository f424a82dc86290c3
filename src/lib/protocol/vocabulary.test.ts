/**
 * The vocabulary derived from the tables. The type-level lines are checked by `npm run check`: a `@ts-expect-error`
 * whose line compiles fails the check, so a cause id, row pairing or parameter the tables do not have cannot
 * compile anywhere.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
	AUTHORISATION_ERRORS,
	AUTHORISATION_PARAMETERS,
	AUTHORIZATION_CODE,
	CLIENT_CREDENTIALS,
	CODE_VALIDITY,
	GRANT_PARAMETERS,
	LIMITS,
	TOKEN_PARAMETERS,
	allErrorRows,
	authorisationMessage,
	durationWords,
	isGrantType,
	errorCause,
	type AuthorisationParameter,
	type CauseId,
	type CauseIdOf,
	type CausesOf,
	type RowCause,
	type TokenParameter
} from './index';
import { AuthorisationQuery, TokenRequest } from './schemas';

describe('cause ids, typed from the tables', () => {
	it('CauseId is exactly the union of the tables’ cause ids', () => {
		const ids = [...new Set(allErrorRows().flatMap((row) => row.causes.map((c) => c.id)))];
		expect(ids).toContain('redirect-mismatch');
		expectTypeOf<'redirect-mismatch'>().toExtend<CauseId>();
		expectTypeOf<'missing-user-agent'>().toExtend<CauseIdOf<'me-forbidden'>>();
		expectTypeOf<CauseIdOf<'auth-unsupported-response-type'>>().toEqualTypeOf<'not-code'>();
		expectTypeOf<CauseIdOf<'token-unsupported-grant-type'>>().toEqualTypeOf<'wrong-grant-type'>();
	});

	it('refuses, at compile time, a cause the tables do not have or a cause of another row', () => {
		// @ts-expect-error: no row has this cause
		const unknown: CauseId = 'no-such-cause';
		// @ts-expect-error: `used` is a cause of token-invalid-grant, not of me-forbidden
		const otherRow: RowCause = { rowId: 'me-forbidden', causeId: 'used' };
		// @ts-expect-error: `revoked` is not a cause of token-invalid-client
		type NotInRow = CausesOf<'token-invalid-client', 'wrong-secret' | 'revoked'>;
		// @ts-expect-error: errorCause checks the pair
		expect(() => errorCause('auth-invalid-client', 'not-registered')).toThrow(/no cause not-registered/);
		expect([unknown, otherRow.causeId]).toEqual(['no-such-cause', 'used']);
		expectTypeOf<NotInRow>().not.toBeNever();
	});

	it('errorCause finds a row’s cause as the table words it', () => {
		expect(errorCause('token-invalid-grant', 'expired').text).toMatch(/more than 2 hours old/);
		expect(errorCause('auth-invalid-client', 'missing').fix).toMatch(/client_id/);
	});

	it('authorisationMessage quotes each 7.1 row’s message', () => {
		for (const row of AUTHORISATION_ERRORS) expect(authorisationMessage(row.id)).toBe(row.message);
	});
});

describe('token endpoint parameters, declared once', () => {
	it('are the code grant’s own parameters and the client credentials, after grant_type', () => {
		expect(TOKEN_PARAMETERS).toEqual(['grant_type', 'code', 'redirect_uri', 'client_id', 'client_secret']);
		expect(GRANT_PARAMETERS[AUTHORIZATION_CODE]).toEqual(['code', 'redirect_uri']);
		for (const name of CLIENT_CREDENTIALS) expect(TOKEN_PARAMETERS).toContain(name);
	});

	it('are the fields of the zod schema of the request (4.2), no more and no fewer', () => {
		expect(Object.keys(TokenRequest.shape).sort()).toEqual([...TOKEN_PARAMETERS].sort());
		expectTypeOf<keyof TokenRequest>().toEqualTypeOf<TokenParameter>();
	});

	it('knows the code grant and the sandbox\'s refresh grant, and nothing inherited', () => {
		expect(['authorization_code', 'refresh_token', 'password', 'toString', '__proto__'].filter(isGrantType)).toEqual([
			'authorization_code',
			'refresh_token'
		]);
	});

	it('refuses, at compile time, a name that is not one of them', () => {
		// @ts-expect-error: the interface's token request has no `scope`
		const scope: TokenParameter = 'scope';
		expect(TOKEN_PARAMETERS).not.toContain(scope);
	});
});

describe('authorisation link parameters, declared once', () => {
	it('are the fields of the zod schema of the link (4.1)', () => {
		expect(Object.keys(AuthorisationQuery.shape).sort()).toEqual([...AUTHORISATION_PARAMETERS].sort());
		expectTypeOf<keyof AuthorisationQuery>().toEqualTypeOf<AuthorisationParameter>();
	});
});

describe('limits, quoted in words', () => {
	it('words the code’s validity from LIMITS', () => {
		expect(CODE_VALIDITY).toBe('2 hours');
		expect(CODE_VALIDITY).toBe(durationWords(LIMITS.codeTtlSeconds));
	});

	it('words durations', () => {
		expect(durationWords(86_400)).toBe('1 day');
		expect(durationWords(93_600)).toBe('1 day 2 hours');
		expect(durationWords(90)).toBe('1 minute 30 seconds');
	});
});
