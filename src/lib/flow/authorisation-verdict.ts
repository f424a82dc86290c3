/**
 * A 7.1 error page in the evidence is the flow's verdict: the authorisation page refused the link, shows the user
 * its message and never redirects, so nothing after it (state, the callback, rows matched) is the story. Read from
 * the page itself, in any recording of it (a HAR, a saved run, the live log): its row, and the detail it gives.
 */
import type { AuthorisationRow } from './diagnose/authorisation-page';
import { shownAuthorisationRow } from './diagnose/authorisation-page';
import type { RecordedExchange } from './exchange';
import type { FlowRecord } from './record';

export interface AuthorisationRefusal {
	index: number;
	exchange: RecordedExchange;
	row: AuthorisationRow;
	/** The page's own words after the message (e.g. which redirect URI is registered), when it gives any. */
	detail: string | null;
	/** The row's cause the page's words name, when they name one. */
	cause: AuthorisationRow['causes'][number] | null;
}

/** What a person reads of a page: tags, scripts and styles dropped, whitespace evened out. */
const visible = (html: string) =>
	html
		.replace(/<(script|style|title)\b[\s\S]*?<\/\1\s*>/gi, ' ')
		.replace(/<[^>]*>/g, ' ')
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&amp;/g, '&')
		.replace(/\s+/g, ' ')
		.trim();

/** Words of a page that name a cause, per cause id (the sandbox's and the interface's own wording). */
const CAUSE_WORDS: Record<string, RegExp> = {
	'not-registered': /\bnot registered\b|\bdoes not match\b/i,
	missing: /\bhas no `?\w+`?|\bmissing\b|\bnot an absolute\b/i,
	'unknown-client': /\bunknown client\b|\bno client\b/i
};

/** The page's detail: the sandbox's "What was wrong", else the words after the row's message (a short run of them). */
function pageDetail(text: string, row: AuthorisationRow): string {
	const wrong = /What was wrong\s+(.+?)(?=\s+How to fix it\b|\s+Interface\b|$)/.exec(text)?.[1];
	if (wrong) return wrong.slice(0, 400).trim();
	const at = text.toLowerCase().indexOf(row.message.toLowerCase().replace(/\.$/, ''));
	return at === -1 ? '' : text.slice(at + row.message.length).replace(/^[.\s]+/, '').slice(0, 300).trim();
}

/** The first 7.1 error page of the flow's authorisation steps (never the app's own page at the redirect URI). */
export function authorisationRefusal(flow: FlowRecord): AuthorisationRefusal | null {
	for (const [index, exchange] of flow.exchanges.entries()) {
		const response = exchange.response;
		if (exchange.step !== 'link' && exchange.step !== 'sign-in') continue;
		if (!response || response.status < 400) continue;
		const row = shownAuthorisationRow(response.body);
		if (!row) continue;
		const after = pageDetail(visible(response.body), row);
		const cause = row.causes.find((c) => CAUSE_WORDS[c.id]?.test(after)) ?? (row.causes.length === 1 ? row.causes[0]! : null);
		return { index, exchange, row, detail: after === '' ? null : after, cause };
	}
	return null;
}
