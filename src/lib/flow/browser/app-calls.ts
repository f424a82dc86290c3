/**
 * A single-page app's own API calls that carry the grant code: after the browser arrives at the redirect URI, the
 * page's script sends the code to the app's server (`POST /api/session {"code": "…"}`). Which calls those are is
 * read from the evidence, never from paths: the arrival's code appearing in a call's query or body; and a call after
 * a cancel that sends `code` with no value (`null`, empty, or the text a script makes of a missing one).
 */

import { FormSearch } from '$lib/http/form-search';

/** What the membership tests read of a request. */
export interface CallRequest {
	url: string;
	body: string | null;
}

/** Codes shorter than this could appear in any body by chance; the service's are long random strings. */
const MIN_CODE_CHARS = 8;

/**
 * Which of the codes it holds a request's URL or body carries (as sent, or percent-encoded). Each request is searched
 * once for all of them (`FormSearch`): a HAR of thousands of arrivals has thousands of codes and as many calls.
 * Codes can be added as a HAR is read.
 */
export class CodeCarrier {
	readonly #codes: string[] = [];
	readonly #known = new Set<string>();
	readonly #search = new FormSearch();

	constructor(codes: readonly string[] = []) {
		for (const code of codes) this.add(code);
	}

	add(code: string): void {
		if (code.length < MIN_CODE_CHARS || this.#known.has(code)) return;
		this.#known.add(code);
		this.#codes.push(code);
		this.#search.add([code, encodeURIComponent(code)]);
	}

	carried(request: CallRequest): string[] {
		if (this.#search.empty) return [];
		const found = new Set(this.#search.occurrences(`${request.url}\n${request.body ?? ''}`).map((o) => o.value));
		return [...found].map((i) => this.#codes[i]!);
	}
}

/** What a script sends for a `code` it did not have. */
const NO_VALUE = new Set(['', 'null', 'undefined']);
const JSON_NO_CODE = /"code"\s*:\s*(?:null|""|"null"|"undefined")\s*[,}]/;

/** Whether the request sends a `code` field without a value: JSON `"code": null`, or `code=null` in its query or form body. */
export function sendsEmptyCode(request: CallRequest): boolean {
	const body = request.body ?? '';
	if (JSON_NO_CODE.test(body)) return true;
	const query = URL.canParse(request.url) ? new URL(request.url).searchParams.get('code') : null;
	const form = /^\s*[[{]/.test(body) ? null : new URLSearchParams(body).get('code');
	return [query, form].some((value) => value !== null && NO_VALUE.has(value));
}
