import { describe, expect, it } from 'vitest';
import { AUTHORISATION_ERRORS, TOKEN_ERRORS } from '$lib/protocol';
import { annotateAuthorisationAnswer, annotateAuthorisationError, authorisationRow, shownAuthorisationRow } from './authorisation-page';

const redirectRow = AUTHORISATION_ERRORS.find((row) => row.id === 'auth-invalid-redirect-uri')!;

describe('authorisationRow', () => {
	it('finds each 7.1 row by its id', () => {
		for (const row of AUTHORISATION_ERRORS) expect(authorisationRow(row.id)).toBe(row);
	});

	it('finds nothing for a row of another table, an unknown id or a value that is not a string', () => {
		expect(authorisationRow(TOKEN_ERRORS[0].id)).toBeUndefined();
		expect(authorisationRow('auth-made-up')).toBeUndefined();
		expect(authorisationRow(undefined)).toBeUndefined();
		expect(authorisationRow(7)).toBeUndefined();
	});
});

describe('shownAuthorisationRow', () => {
	it('reads each 7.1 message from a page, whatever its case and with or without the full stop', () => {
		for (const row of AUTHORISATION_ERRORS) {
			const bare = row.message.replace(/\.$/, '');
			expect(shownAuthorisationRow(`<html><body><p>${row.message}</p></body></html>`)).toBe(row);
			expect(shownAuthorisationRow(`<P>${bare.toUpperCase()}</P>`)).toBe(row);
		}
	});

	it('finds nothing on a page without any of the messages', () => {
		expect(shownAuthorisationRow('<html><body>Sign in to continue</body></html>')).toBeUndefined();
	});
});

describe('annotateAuthorisationError', () => {
	it('with a known cause: that cause, likely, with its fix; the detail leads the summary', () => {
		const annotation = annotateAuthorisationError(redirectRow, 'missing', 'redirect_uri is missing.');
		expect(annotation).toMatchObject({ outcome: 'error', rowId: redirectRow.id, causeId: 'missing', fix: redirectRow.causes[1].fix });
		expect(annotation.title).toBe(`The authorisation page shows: ${redirectRow.message}`);
		expect(annotation.summary).toBe('redirect_uri is missing. The service shows this to the user and never redirects.');
		expect(annotation.candidates).toEqual([{ rowId: redirectRow.id, causeId: 'missing', likelihood: 'likely', why: redirectRow.causes[1].text, fix: redirectRow.causes[1].fix }]);
	});

	it("with a known cause and no detail: the cause's text is the summary", () => {
		const annotation = annotateAuthorisationError(redirectRow, 'not-registered');
		expect(annotation.summary).toBe(`${redirectRow.causes[0].text} The service shows this to the user and never redirects.`);
	});

	it('without a cause (or an unknown one): every cause of the row, possible, and no fix chosen', () => {
		for (const causeId of [undefined, 'no-such-cause']) {
			const annotation = annotateAuthorisationError(redirectRow, causeId);
			expect(annotation.causeId).toBeUndefined();
			expect(annotation.fix).toBeUndefined();
			expect(annotation.summary).toBe(`This is section 7.1, row ${redirectRow.id}. The service shows this to the user and never redirects.`);
			expect(annotation.candidates.map((c) => [c.causeId, c.likelihood])).toEqual(redirectRow.causes.map((c) => [c.id, 'possible']));
		}
	});
});

describe('annotateAuthorisationAnswer', () => {
	const answer = (status: number, body: string) => ({ response: { status, statusText: '', headers: [], body, truncated: false } });

	it('annotates an error page with the row it shows; nothing for a redirect, a page without a row, or no answer', () => {
		expect(annotateAuthorisationAnswer(answer(400, `<main><p>${redirectRow.message}</p></main>`))).toMatchObject({ outcome: 'error', rowId: redirectRow.id });
		expect(annotateAuthorisationAnswer(answer(303, redirectRow.message))).toBeNull();
		expect(annotateAuthorisationAnswer(answer(404, '<p>Page not found</p>'))).toBeNull();
		expect(annotateAuthorisationAnswer({ response: null })).toBeNull();
	});
});
