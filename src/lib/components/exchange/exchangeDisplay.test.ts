import { describe, expect, it } from 'vitest';
import { errorRow } from '$lib/protocol';
import {
	durationText,
	failureHeading,
	findCause,
	findRow,
	maskedNotes,
	referenceHref,
	rowLabel,
	utcClockTime
} from './exchangeDisplay';

describe('timing', () => {
	it('writes milliseconds below a second and seconds above', () => {
		expect(durationText(35.4)).toBe('35 ms');
		expect(durationText(1234)).toBe('1.2 s');
	});

	it('writes the start as a UTC clock time, or the text unchanged when it is not a date', () => {
		expect(utcClockTime('2030-01-01T12:01:02.345Z')).toBe('12:01:02 UTC');
		expect(utcClockTime('later')).toBe('later');
	});
});

describe('maskedNotes', () => {
	it('groups places by kind and offers reveal for tokens only, never the secret or the code', () => {
		const notes = maskedNotes([
			{ kind: 'client_secret', where: 'query parameter client_secret', hint: '' },
			{ kind: 'access_token', where: 'response body access_token', hint: '…a1b2' },
			{ kind: 'client_secret', where: 'Authorization header', hint: '' },
			{ kind: 'refresh_token', where: 'response body refresh_token', hint: '…c3d4' },
			{ kind: 'code', where: 'query parameter code', hint: '' }
		]);
		expect(notes.map((n) => [n.word, n.places.length, n.revealable])).toEqual([
			['client secret', 2, false],
			['access token', 1, true],
			['refresh token', 1, true],
			['grant code', 1, false]
		]);
	});
});

describe('failureHeading', () => {
	it('names each kind of transport failure, with the timeout waited', () => {
		expect(failureHeading({ kind: 'timeout', message: 'x', timeoutMs: 10_000 })).toBe('No answer within 10.0 s');
		expect(failureHeading({ kind: 'refused', message: 'x' })).toMatch(/not allowed/);
		expect(failureHeading({ kind: 'unreachable', message: 'x' })).toMatch(/could not be reached/);
		expect(failureHeading({ kind: 'too-large', message: 'x' })).toMatch(/too large/);
	});
});

describe('rows', () => {
	it('labels a row by its table, status and error', () => {
		expect(rowLabel(errorRow('token-invalid-grant'))).toBe('7.2 · 400 invalid_grant');
		expect(rowLabel(errorRow('me-forbidden'))).toBe('7.3 · 403');
		expect(rowLabel(errorRow('auth-unsupported-response-type'))).toBe(
			'7.1 · The authorization server does not support this response type.'
		);
	});

	it('finds rows and causes by id, and nothing for unknown ids', () => {
		const row = findRow('token-invalid-grant');
		expect(findCause(row, 'used')?.text).toMatch(/already exchanged/);
		expect(findCause(row, 'nope')).toBeUndefined();
		expect(findRow('nope')).toBeUndefined();
		expect(findRow(undefined)).toBeUndefined();
	});

	it('links rows and causes to their anchors on the reference page', () => {
		expect(referenceHref('token-invalid-grant')).toBe('/reference#token-invalid-grant');
		expect(referenceHref('token-invalid-grant', 'used')).toBe('/reference#token-invalid-grant-used');
	});
});
