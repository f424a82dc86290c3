/**
 * A run: one walk of the flow, recorded. Saved, exported (HAR, Markdown, shell) and imported (HAR, curl, raw HTTP).
 * A run is always redacted (see redact.ts) before it is stored or leaves the server.
 */
import type { RecordedExchange, StepId } from '$lib/flow/exchange';
import { linkParameter, type FlowRecord } from '$lib/flow/record';
import type { SanitisedExport } from '$lib/flow/flags';
import type { Annotation } from '$lib/flow/diagnose/diagnose';
import { errorRow } from '$lib/protocol';
import type { Frozen } from '$lib/frozen';

export interface Redaction {
	/** What was hidden (or kept and marked), e.g. "client secret", "cookie". Never the value. */
	what: string;
	/** Where it was, e.g. "exchange 3 (token) URL parameter client_secret". */
	where: string;
}

/** A recorded flow (what the flow engine reads), named and kept. */
export interface Run extends FlowRecord {
	id: string;
	title: string;
	createdAt: string;
	redactions: Redaction[];
	source: RunSource;
	/** Present when the run came from a sanitised HAR export (see support/sanitised.ts): what the export hid. */
	sanitised?: SanitisedExport;
}

export const RUN_SOURCES = ['walk', 'scenario', 'har', 'curl', 'http', 'live'] as const;
export type RunSource = (typeof RUN_SOURCES)[number];

/** How a run came to be, for a person: "a walk in the explorer", "an imported HAR". */
export function describeSource(source: RunSource): string {
	if (source === 'walk') return 'a walk in the explorer';
	if (source === 'scenario') return 'a scenario run';
	if (source === 'live') return 'the sandbox\'s live view of a client\'s own app';
	return `an imported ${source === 'http' ? 'raw HTTP exchange' : source === 'curl' ? 'curl command' : 'HAR'}`;
}

/**
 * What a run was made against, for a person, the same on its page and in its report: "the built-in sandbox", or the
 * hosts it reached ("authorisation host https://auth.example.com, accounts host not recorded").
 */
export function describeTarget(target: FlowRecord['target']): string {
	if (target.kind === 'sandbox') return 'the built-in sandbox';
	const host = (label: string, url: string) => `${label} host ${url || 'not recorded'}`;
	if (!target.authUrl && !target.accountsUrl) return 'not recorded';
	return `${host('authorisation', target.authUrl)}, ${host('accounts', target.accountsUrl)}`;
}

/**
 * A note for an imported browser recording of a walk in this explorer (its link's redirect URI is `walkRedirectUri`,
 * the explorer's own /callback): the explorer's server made its token exchange and me.json call, which the browser
 * never sees. Null for any other run, or one that holds those calls already.
 */
export function walkedHereNote(run: Pick<Run, 'link' | 'exchanges' | 'source'>, walkRedirectUri: string, onSandbox: boolean): string | null {
	if (run.source === 'walk' || linkParameter(run, 'redirect_uri') !== walkRedirectUri) return null;
	if (run.exchanges.some((e) => e.step === 'token' || e.step === 'me')) return null;
	return `this recording is of a walk in this explorer (its redirect URI is the explorer's own /callback): the explorer's server made the token exchange and the me.json call, which a browser's recording never holds. The walk's own run has them${onSandbox ? "; or add them here with 'Sandbox log for this client'" : ''}.`;
}

/** Errors as data: what was wrong with the input and what to do. */
export type ImportResult = { ok: true; run: Run } | { ok: false; message: string };

export interface ImportOptions {
	/** The new run's id; a random UUID by default. */
	id?: string;
	/** When the import happened; now by default. */
	now?: Date;
}

/** The built-in sandbox's two hosts, as this explorer publishes them. */
export interface SandboxHosts {
	authUrl: string;
	accountsUrl: string;
}

/** A URL's origin; empty when it has none. */
export function originOf(url: string | undefined): string {
	return url && URL.canParse(url) ? new URL(url).origin : '';
}

/** The target of an imported run: the link's origin is the authorisation host, the API calls' the accounts host. */
export function inferTarget(link: string | null, exchanges: RecordedExchange[]): FlowRecord['target'] {
	const api = exchanges.find((e) => e.step === 'token' || e.step === 'me');
	const linkUrl = link ?? exchanges.find((e) => e.step === 'link')?.request.url;
	return { kind: 'custom', authUrl: originOf(linkUrl), accountsUrl: originOf(api?.request.url) };
}

/** A fresh id for a run, from the platform's CSPRNG (browser and Node alike). */
export function newRunId(): string {
	return globalThis.crypto.randomUUID();
}

/** What a run is made of; what is not given was not recorded (no link, callback, exchanges or sandbox clock). */
export type RunParts<E> = Pick<Run, 'source' | 'title' | 'createdAt' | 'target'> &
	Partial<Pick<Run, 'id' | 'sandboxClock' | 'link' | 'callback' | 'redactions' | 'sanitised' | 'codeExchangedBefore'>> & { exchanges?: E[] };

/**
 * The one way a run is made, whatever made it (a walk saved, a HAR, curl or raw HTTP import, a live flow saved, a
 * scenario): every field present, and a fresh id unless one is given. `E`: a walk's exchanges are frozen.
 */
export function newRun<E extends Frozen<RecordedExchange> = RecordedExchange>(parts: RunParts<E>): Omit<Run, 'exchanges'> & { exchanges: E[] } {
	const { id = newRunId(), sandboxClock = null, link = null, callback = null, exchanges = [], redactions = [], ...rest } = parts;
	return { id, ...rest, sandboxClock, link, callback, exchanges, redactions };
}

/** Of an exchange, what its headline reads. */
interface ExchangeEnd {
	step: StepId;
	response: { readonly status: number } | null;
	failure: { readonly kind: string } | null;
}

/** What one exchange ended with, for a title: "me.json 200", "token 400 invalid_grant (7.2: used)". */
export function exchangeHeadline(exchange: ExchangeEnd, annotation?: Pick<Annotation, 'rowId' | 'causeId'>): string {
	const endpoint = exchange.step === 'me' ? 'me.json' : exchange.step;
	if (!exchange.response) return `${endpoint} not answered (${exchange.failure?.kind ?? 'no response'})`;
	if (!annotation?.rowId) return `${endpoint} ${exchange.response.status}`;
	const row = errorRow(annotation.rowId);
	const error = 'error' in row && row.error ? ` ${row.error}` : '';
	return `${endpoint} ${exchange.response.status}${error} (${row.table}${annotation.causeId ? `: ${annotation.causeId}` : ''})`;
}

/**
 * A walk's title says how it ended: the last exchange's headline, "cancelled" for a cancelled sign-in with nothing
 * sent since, "code received" before the exchange. Computed when the run is saved.
 */
export function walkTitle(walk: {
	where: string;
	clientId: string;
	cancelled: boolean;
	last?: { exchange: ExchangeEnd; annotation?: Pick<Annotation, 'rowId' | 'causeId'> };
}): string {
	const outcome = walk.last ? exchangeHeadline(walk.last.exchange, walk.last.annotation) : walk.cancelled ? 'cancelled' : 'code received';
	return `${walk.where} walk, ${walk.clientId}: ${outcome}`;
}
