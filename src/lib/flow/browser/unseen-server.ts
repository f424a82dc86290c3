/**
 * A browser's recording of a failed callback with nothing in it to say why: the failed step is on the app's server
 * (its exchange, its me.json call, its handling of their answers), which the browser never sees, so no cause is
 * guessed and the verdict says what is unseen.
 */
import type { TokenErrorRow } from '$lib/protocol';
import type { EvidenceOf } from '../diagnose/diagnose-rank';
import type { FlowRecord } from '../record';

/** The record holds none of the app's server's requests (a browser's HAR): its exchange and me.json are unseen. */
export const browserOnly = (flow: FlowRecord) => !flow.exchanges.some((e) => e.step === 'token' || e.step === 'me');

/** `head`: the arrival and the app's answer; `named`: the rows of 7.2 the page names, if any. */
export function unseenServerMessage(head: string, named: readonly TokenErrorRow[]): string {
	const page = named.length > 0 ? ` The page names ${named.map((r) => `\`${r.error}\``).join(' and ')} (7.2), whose causes are told by the exchange your server sent.` : '';
	return `${head}: a step on your app's server failed (its token exchange, its me.json call, or its handling of their answers).${page} The record holds only the browser's side, which never sees those requests, so which step failed and why is not seen here.`;
}

/**
 * Whether the browser's record shows why the exchange failed: a repeated or late arrival does, and so does a page
 * naming an error of 7.2 or a client library's token error once any cause is suspected. Extra query parameters on the link's `redirect_uri` alone do
 * not: many correct apps carry them, and a page that names no error may have failed at me.json or after it.
 */
export function causeSeen(evidence: readonly EvidenceOf<'token-invalid-grant'>[], pageNamesError: boolean): boolean {
	return evidence.some((e) => pageNamesError || e.causeId !== 'redirect-mismatch');
}
