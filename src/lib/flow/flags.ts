/**
 * What is wrong across the requests of a flow, which no single exchange's annotation can see: the secret in the
 * link, a `redirect_uri` at the token endpoint that is not the link's, one code exchanged twice, an exchange after
 * a cancel, a grant code sent to me.json, me.json without `User-Agent`, a token exchange made from a browser.
 * The link's own findings come from the link linter; what the browser's side shows of the app's callback page, from
 * browser-flags.ts; faults across time (an exchange after 2 hours, a token used after deletion, the live view's
 * cancel loop), from flow-flags.ts.
 */
import { SECTIONS, errorCause } from '$lib/protocol';
import { headerValue } from '$lib/http/headers';
import { classifyCallback, codeIn } from './callback';
import { browserFlags, readBrowserSide, type BrowserSide } from './browser/browser-flags';
import { stateCheckShown } from './browser/state-evidence';
import { flowFlags, type FollowedCancel } from './flow-flags';
import { redirectUriDiff, type Candidate, type UriDiff } from './diagnose/diagnose';
import type { RecordedExchange } from './exchange';
import { lintLink } from './link/lint';
import { ENCODE_REDIRECT_URI } from './link/lint-params';
import { splitOffPieces } from './link/redirect-split';
import { ruleOf } from './outcome-rule';
import { linkRedirectUri, type FlowRecord } from './record';
import { excusedRefusals, refusalsAsSpecified } from './diagnose/refused-as-specified';
import { meCredential, requestHeader, requestParam } from './request-params';
import { jsonBodyFlags, refusedJsonBody } from './diagnose/token-json-body';
import { headerCredentialFlags } from './diagnose/token-header-credentials';
import { rerunAfter, rerunFinding } from './handling/handler-rerun';
import { codesSentAgain } from './browser/app-call-flags';

export interface CrossFlag {
	id: string;
	severity: 'error' | 'warning';
	message: string;
	/** Section of the interface, from SECTIONS. */
	section: string;
	fix: string;
	/** The exchange the flag is about, when it is about one. */
	exchangeId?: string;
	/** When the flag is a failure whose cause the record cannot name: the table's causes, most likely first. */
	candidates?: Candidate[];
}

/**
 * A HAR exported sanitised (Chrome's default since version 130; other browsers offer the same): the export removed
 * these headers from every request and response, so what they carried is unknown, never missing.
 */
export interface SanitisedExport {
	/** The header names the export strips, e.g. `Cookie`, `Set-Cookie`, `Authorization`. */
	hidden: string[];
}

/** What the record alone cannot show, told by whoever made it. */
export interface FlowHints {
	/**
	 * The client secret's value was found in the link under another name than `client_secret` (redaction found it
	 * by value): the masked link the linter sees no longer shows it.
	 */
	secretInLink?: boolean;
	/** The live view split this flow from one that ended in a cancel just before its link (reconstruct.ts). */
	followsCancel?: FollowedCancel | null;
}

interface Numbered {
	exchange: RecordedExchange;
	/** 1-based, as a person counts the exchanges of the run. */
	n: number;
}

const header = (e: RecordedExchange, name: string) => requestHeader(e.request, name);
const param = (e: RecordedExchange, name: string) => requestParam(e.request, name);

/* ------------------------------------------------------------------ the link */

function linkFlags(flow: FlowRecord, hints: FlowHints): CrossFlag[] {
	if (flow.link === null) return [];
	const findings = lintLink(flow.link, { authUrl: flow.target.authUrl, accountsUrl: flow.target.accountsUrl });
	const flags: CrossFlag[] = findings.flatMap((f) =>
		f.severity === 'info' ? [] : [{ id: f.id, severity: f.severity, message: f.message, section: f.section, fix: f.fix }]
	);
	if (hints.secretInLink && !flags.some((f) => f.id === 'client-secret-parameter'))
		flags.push({
			id: 'client-secret-in-link',
			severity: 'error',
			message: 'The client secret\'s value was in the authorisation link (it has been redacted here). Anything in the link is visible to the user, their browser history and the service\'s logs.',
			section: SECTIONS.client,
			fix: 'Remove the client secret from the link. It is sent only from your server to the token endpoint; ask for a new secret, since this one has been seen by a browser.'
		});
	return flags;
}

/* ------------------------------------------------------------------ the token exchanges */

function describeDiff(diff: UriDiff[]): string {
	return diff
		.map(({ part, a, b }) => `its ${part} is ${a === '' ? '(none)' : `\`${a}\``} in the link but ${b === '' ? '(none)' : `\`${b}\``} here`)
		.join('; ');
}

function redirectUriFlags(flow: FlowRecord, tokens: Numbered[]): CrossFlag[] {
	const linked = linkRedirectUri(flow);
	if (linked === undefined) return [];
	return tokens.flatMap(({ exchange, n }): CrossFlag[] => {
		const sent = param(exchange, 'redirect_uri');
		// Sent in a refused JSON body, it is not missing but unread: the JSON body's own flag names that.
		if (sent === linked || (sent === undefined && refusedJsonBody(exchange))) return [];
		if (sent === undefined)
			return [
				{
					id: 'redirect-uri-missing',
					severity: 'error',
					message: `Exchange ${n} (token) sends no \`redirect_uri\`; it must repeat the link's, \`${linked}\`. The service answers invalid_request.`,
					section: SECTIONS.tokenEndpoint,
					fix: errorCause('token-invalid-request', 'missing-parameter').fix,
					exchangeId: exchange.id
				}
			];
		const pieces = flow.link === null ? null : splitOffPieces(flow.link, sent);
		if (pieces)
			return [
				{
					id: 'redirect-uri-differs',
					severity: 'error',
					message: `The link's \`redirect_uri\` was not encoded as a URI component, so its own query split the link: ${pieces.map((p) => `\`${p}\``).join(', ')} became ${pieces.length === 1 ? 'a parameter' : 'parameters'} of the link, and the service took the redirect URI as \`${linked}\`. Exchange ${n} (token) sends the whole \`${sent}\`, which differs, so the service answers invalid_grant.`,
					section: SECTIONS.redirectExtras,
					fix: `${ENCODE_REDIRECT_URI} Then the link and the exchange carry the same redirect URI.`,
					exchangeId: exchange.id
				}
			];
		return [
			{
				id: 'redirect-uri-differs',
				severity: 'error',
				message: `Exchange ${n} (token) sends a \`redirect_uri\` that differs from the link's: ${describeDiff(redirectUriDiff(linked, sent))}. It must be identical, extra query parameters included, or the service answers invalid_grant.`,
				section: SECTIONS.tokenEndpoint,
				fix: errorCause('token-invalid-grant', 'redirect-mismatch').fix,
				exchangeId: exchange.id
			}
		];
	});
}

/** Why a code was exchanged again after it was accepted: the callback's re-run after a crash, else a plain reuse. */
function reusedWords(flow: FlowRecord, accepted: Numbered, again: Numbered, sentAgain: ReadonlySet<string>): { message: string; fix: string } {
	const me = rerunAfter(flow, accepted, again, sentAgain);
	if (me) return rerunFinding(flow, accepted, again, me);
	return {
		message: `Exchange ${again.n} (token) sends the code that exchange ${accepted.n} already exchanged successfully. A code works once (2.2): every later exchange fails with invalid_grant.`,
		fix: errorCause('token-invalid-grant', 'used').fix
	};
}

/** One pass, each code's earlier exchanges kept by the code: a flow of thousands of exchanges of one code stays linear. */
function reusedCodeFlags(flow: FlowRecord, tokens: Numbered[], side: BrowserSide): CrossFlag[] {
	const seen = new Map<string, { first: Numbered; accepted?: Numbered }>();
	// Read once, and only for a flow that reuses a code.
	let sentAgain: ReadonlySet<string> | undefined;
	return tokens.flatMap((token): CrossFlag[] => {
		const { exchange, n } = token;
		const code = param(exchange, 'code');
		if (code === undefined || code === '') return [];
		const earlier = seen.get(code);
		const accepted = earlier?.accepted;
		if (!earlier) seen.set(code, { first: token, ...(exchange.response?.status === 200 ? { accepted: token } : {}) });
		else if (!accepted && exchange.response?.status === 200) earlier.accepted = token;
		if (!earlier) return [];
		return [
			accepted
				? { id: 'code-reused', severity: 'error', ...reusedWords(flow, accepted, token, (sentAgain ??= codesSentAgain(flow, side.arrivals))), section: SECTIONS.code, exchangeId: exchange.id }
				: {
						id: 'code-resent',
						severity: 'warning',
						message: `Exchange ${n} (token) sends the same code as exchange ${earlier.first.n}. None of the earlier attempts succeeded, so the code may still be unused, but a code works once (2.2).`,
						section: SECTIONS.code,
						fix: errorCause('token-invalid-grant', 'used').fix,
						exchangeId: exchange.id
					}
		];
	});
}

function afterCancelFlags(flow: FlowRecord, tokens: Numbered[]): CrossFlag[] {
	if (!flow.callback) return [];
	const expected = linkRedirectUri(flow) ?? flow.callback.url;
	if (classifyCallback(flow.callback.url, { redirectUri: expected }).kind !== 'cancel') return [];
	// An exchange without a code, or with one no redirect of the flow delivered (a cancel delivers none): after the cancel.
	const delivered = new Set(deliveredCodes(flow));
	return tokens
		.filter(({ exchange }) => !delivered.has(param(exchange, 'code') ?? ''))
		.map(({ exchange, n }) => ({
			id: 'exchange-after-cancel',
			severity: 'error' as const,
			message: param(exchange, 'code')
				? `The user cancelled (the redirect back carried no \`code\`), yet exchange ${n} (token) was attempted with a \`code\` the redirect never delivered: your app exchanged after the cancel. The service refuses a code it did not issue; the cancel itself was not an error.`
				: `The user cancelled (the redirect back carried no \`code\`), yet exchange ${n} (token) was attempted without a code. The service answers invalid_request; the cancel itself was not an error.`,
			section: SECTIONS.states,
			fix: errorCause('token-invalid-request', 'missing-code').fix,
			exchangeId: exchange.id
		}));
}

function browserTokenFlags(tokens: Numbered[]): CrossFlag[] {
	return tokens
		.filter(({ exchange }) => header(exchange, 'origin') !== undefined)
		.map(({ exchange, n }) => ({
			id: 'token-from-browser',
			severity: 'error' as const,
			message: `Exchange ${n} (token) was sent by a browser (it carries an \`Origin\` header), so the client secret is in client-side code.`,
			section: SECTIONS.tokenEndpoint,
			fix: 'Exchange the code on your server: the token endpoint carries the client secret and must be called from the client\'s server (4.2). Ask for a new secret, since this one has been in a browser.',
			exchangeId: exchange.id
		}));
}

/* ------------------------------------------------------------------ me.json */

const known = (codes: (string | undefined)[]) => codes.filter((c): c is string => c !== undefined && c !== '');

/** The grant codes the flow's redirects delivered on the way back to the redirect URI. */
function deliveredCodes(flow: FlowRecord): string[] {
	const back = flow.exchanges.flatMap((e) => [
		...(e.step === 'arrival' ? [e.request.url] : []),
		...(e.response ? [headerValue(e.response.headers, 'location')] : [])
	]);
	return known([flow.callback?.url, ...back].map(codeIn));
}

/** The grant codes a flow carries: delivered by its redirects, and sent to the token endpoint. */
function grantCodes(flow: FlowRecord): Set<string> {
	return new Set([...deliveredCodes(flow), ...known(flow.exchanges.filter((e) => e.step === 'token').map((e) => requestParam(e.request, 'code')))]);
}

function meFlags(flow: FlowRecord, mes: Numbered[]): CrossFlag[] {
	const codes = grantCodes(flow);
	return mes.flatMap(({ exchange, n }): CrossFlag[] => {
		const flags: CrossFlag[] = [];
		const credential = meCredential(exchange.request);
		if (credential !== undefined && codes.has(credential))
			flags.push({
				id: 'code-sent-to-me',
				severity: 'error',
				message: `Exchange ${n} (me.json) sends the grant code as its token, not an access token: a grant code is accepted only by the token endpoint (5.4), so me.json answers 401.`,
				section: SECTIONS.authentication,
				fix: errorCause('me-unauthorized', 'grant-code').fix,
				exchangeId: exchange.id
			});
		if (header(exchange, 'user-agent') === undefined)
			flags.push({
				id: 'me-no-user-agent',
				severity: exchange.response?.status === 403 ? 'error' : 'warning',
				message: `Exchange ${n} (me.json) sends no \`User-Agent\` header, which 4.3 requires; the service may answer 403.`,
				section: SECTIONS.meEndpoint,
				fix: errorCause('me-forbidden', 'missing-user-agent').fix,
				exchangeId: exchange.id
			});
		return flags;
	});
}

/** `browser` and `refused`: the flow's browser side and refusals as specified, when the caller read them already (diagnoseFlow). */
export function crossFlags(flow: FlowRecord, hints: FlowHints = {}, browser?: BrowserSide, refused?: ReadonlySet<string>): CrossFlag[] {
	const numbered = flow.exchanges.map((exchange, i) => ({ exchange, n: i + 1 }));
	const tokens = numbered.filter(({ exchange }) => exchange.step === 'token');
	const mes = numbered.filter(({ exchange }) => exchange.step === 'me');
	const side = browser ?? readBrowserSide(flow);
	const asSpecified = refused ?? refusalsAsSpecified(flow);
	const ofBrowser = [...browserFlags(side), ...flowFlags({ ...flow, followsCancel: hints.followsCancel ?? null, refused: asSpecified })];
	// `state` on the link is a fault only when the flow shows a failed check of it.
	const link = linkFlags(flow, hints).filter((f) => f.id !== 'state-parameter' || stateCheckShown(flow, side, ofBrowser));
	// A used code's refusal after a finished sign-in (a reload) is the service as specified, unless the app's page then failed.
	const excused = excusedRefusals(asSpecified, side);
	const reused = reusedCodeFlags(flow, tokens, side).filter((f) => f.exchangeId === undefined || !excused.has(f.exchangeId));
	const flags = [
		...link,
		...redirectUriFlags(flow, tokens),
		...jsonBodyFlags(tokens),
		...headerCredentialFlags(tokens),
		...reused,
		...afterCancelFlags(flow, tokens),
		...browserTokenFlags(tokens),
		...meFlags(flow, mes),
		...ofBrowser
	];
	// An answer an outcome rule produced is no fault of the request it answered.
	const ruled = new Set(flow.exchanges.filter((e) => ruleOf(e) !== null).map((e) => e.id));
	return flags.filter((f) => f.exchangeId === undefined || !ruled.has(f.exchangeId)).sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
}
