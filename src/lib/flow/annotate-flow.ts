/**
 * Annotations of a recorded flow, derived from the record alone: what was sent is read back from each request, the
 * link and callback give what the walk knew. A walk, its saved run's permalink, an imported HAR of it and the
 * sandbox's live log of it are therefore annotated identically, with no state beyond the record.
 */
import { callbackAppFailure, readBrowserSide, type BrowserSide } from './browser/browser-flags';
import { annotateCallback, annotateMeExchange, annotateTokenExchange, type Annotation } from './diagnose/diagnose';
import { annotateAuthorisationAnswer } from './diagnose/authorisation-page';
import { classifyCallback } from './callback';
import { callbackTime, exchangeTime, flowIso } from './flow-time';
import type { RecordedExchange } from './exchange';
import { MASK } from '$lib/http/exchange';
import { ruleAnnotation, ruleOf } from './outcome-rule';
import { linkParameter, linkRedirectUri, type FlowRecord } from './record';
import { meCredential, requestClientId, requestHeader, requestParam } from './request-params';

export interface AnnotatedFlow {
	callback: Annotation | null;
	/** One per exchange, in order; null for those not annotated (a link or sign-in page that shows no 7.1 error, the redirect). */
	exchanges: (Annotation | null)[];
}

function succeeded(exchange: RecordedExchange): boolean {
	return exchange.response?.status === 200;
}

/** Whether a sanitised export removed this header from this exchange: what it carried is unknown. */
function strippedHeader(exchange: RecordedExchange, name: string): boolean {
	return exchange.strippedHeaders?.some((h) => h.toLowerCase() === name) ?? false;
}

/**
 * Annotates a flow's exchanges one at a time, in order: a token exchange is read against the codes that earlier
 * exchanges of the flow spent, which `annotate` and `pass` both note.
 */
function flowAnnotator(flow: FlowRecord) {
	const redirectUri = linkRedirectUri(flow);
	const linkClientId = linkParameter(flow, 'client_id');
	const callbackResult = flow.callback && redirectUri ? classifyCallback(flow.callback.url, { redirectUri }) : null;
	const issuedCode = callbackResult?.kind === 'code' ? callbackResult.code : undefined;
	const target = flow.target.kind;
	const exchangedCodes = new Set<string>();

	/** Notes the code a successful token exchange spent. */
	function pass(exchange: RecordedExchange): void {
		if (exchange.step !== 'token' || !succeeded(exchange)) return;
		const sentCode = requestParam(exchange.request, 'code');
		if (sentCode !== undefined) exchangedCodes.add(sentCode);
	}

	function annotateExchange(exchange: RecordedExchange): Annotation | null {
		if (exchange.step === 'token') {
			const request = exchange.request;
			const sentCode = requestParam(request, 'code');
			return annotateTokenExchange(exchange, {
				target,
				linkRedirectUri: redirectUri,
				linkClientId,
				// Both on the clock the service judged the code by, whatever each was recorded on.
				codeReceivedAt: flow.callback ? flowIso(callbackTime(flow.callback)) : undefined,
				codeExchangedBefore: sentCode !== undefined && (exchangedCodes.has(sentCode) || (flow.codeExchangedBefore === true && sentCode === issuedCode)),
				codeClientId: linkClientId,
				now: flowIso(exchangeTime(exchange)),
				sentRedirectUri: requestParam(request, 'redirect_uri'),
				sentClientId: requestClientId(request),
				sentGrantType: requestParam(request, 'grant_type'),
				sentCode,
				issuedCode
			});
		}
		if (exchange.step === 'me') {
			const token = meCredential(exchange.request);
			return annotateMeExchange(exchange, {
				target,
				sentGrantCode: token !== undefined && !token.includes(MASK) && token === issuedCode,
				sentUserAgent: requestHeader(exchange.request, 'user-agent') !== undefined,
				sentToken: token !== undefined ? true : strippedHeader(exchange, 'authorization') ? 'unknown' : false,
				today: (exchange.sandboxOffsetMs === undefined ? (flow.sandboxClock ?? exchange.startedAt) : flowIso(exchangeTime(exchange))).slice(0, 10)
			});
		}
		// The service shows a 7.1 error on the page itself, at the link or a later sign-in page, and never redirects.
		if (exchange.step === 'link' || exchange.step === 'sign-in') return annotateAuthorisationAnswer(exchange);
		return null;
	}

	return {
		callbackResult,
		pass,
		/** The exchange's annotation; an answer an outcome rule produced is what the user asked for: labelled so, never explained as a fault. */
		annotate(exchange: RecordedExchange): Annotation | null {
			const annotation = annotateExchange(exchange);
			pass(exchange);
			const rule = annotation && ruleOf(exchange);
			return rule ? ruleAnnotation(annotation, rule) : annotation;
		}
	};
}

/** `browser`: the flow's browser side, when the caller read it already (diagnoseFlow reads it once for both halves). */
export function annotateFlow(flow: FlowRecord, browser?: BrowserSide): AnnotatedFlow {
	const annotator = flowAnnotator(flow);
	const exchanges = flow.exchanges.map((exchange) => annotator.annotate(exchange));
	const { callbackResult } = annotator;
	// The redirect may be fine while the app's own page at the redirect URI then failed: that is no success.
	const callback = callbackResult ? (callbackResult.kind === 'unexpected' ? null : callbackAppFailure(browser ?? readBrowserSide(flow))) ?? annotateCallback(callbackResult) : null;
	return { callback, exchanges };
}

/**
 * The flow's last exchange as `annotateFlow` annotates it, without annotating the others or the callback: a walk
 * annotates each exchange it adds, and its cost must not grow with the walk.
 */
export function annotateLastExchange(flow: FlowRecord): Annotation | null {
	const last = flow.exchanges.at(-1);
	if (!last) return null;
	const annotator = flowAnnotator(flow);
	for (const exchange of flow.exchanges.slice(0, -1)) annotator.pass(exchange);
	return annotator.annotate(last);
}
