/**
 * Annotations of a recorded run, derived from the run alone: what was sent is read back from each request, the
 * link and callback give what the walk knew. A saved run, its permalink and an imported HAR of it are therefore
 * annotated identically, with no state beyond the run.
 */
import { annotateCallback, annotateMeExchange, annotateTokenExchange, type Annotation } from '$lib/flow/diagnose';
import { classifyCallback } from '$lib/flow/callback';
import { base64DecodeUtf8 } from '$lib/flow/encoding';
import { MASK, type RecordedExchange, type RecordedRequest } from '$lib/flow/exchange';
import type { Run } from './run';

export interface AnnotatedRun {
	callback: Annotation | null;
	/** One per exchange, in order; null for steps that are not annotated (the link, the redirect). */
	exchanges: (Annotation | null)[];
}

function header(request: RecordedRequest, name: string): string | undefined {
	return request.headers.find((h) => h.name.toLowerCase() === name)?.value;
}

/** The parameters a token or me.json request carried: query string, form body, and Basic/Bearer credentials. */
export function sentParameters(request: RecordedRequest): Map<string, string> {
	const params = new Map<string, string>();
	const url = URL.canParse(request.url) ? new URL(request.url) : null;
	const contentType = header(request, 'content-type') ?? '';
	if (request.body && contentType.includes('application/x-www-form-urlencoded'))
		for (const [name, value] of new URLSearchParams(request.body)) if (!params.has(name)) params.set(name, value);
	// The query string wins over the body, as at the sandbox (choice 'token-parameter-transport').
	for (const [name, value] of url?.searchParams ?? []) params.set(name, value);
	const credentials = /^(Basic|Bearer)\s+(\S+)$/i.exec(header(request, 'authorization') ?? '');
	const decoded = credentials ? base64DecodeUtf8(credentials[2]!) : null;
	if (decoded?.includes(':')) {
		const id = decoded.slice(0, decoded.indexOf(':'));
		params.set('client_id', safeDecode(id));
	}
	return params;
}

function safeDecode(text: string): string {
	try {
		return decodeURIComponent(text.replace(/\+/g, ' '));
	} catch {
		return text;
	}
}

function linkParam(run: Run, name: string): string | undefined {
	return run.link && URL.canParse(run.link) ? (new URL(run.link).searchParams.get(name) ?? undefined) : undefined;
}

function succeeded(exchange: RecordedExchange): boolean {
	return exchange.response?.status === 200;
}

function sentToken(request: RecordedRequest): string | undefined {
	const bearer = /^Bearer\s+(.+)$/i.exec(header(request, 'authorization') ?? '');
	if (bearer) return bearer[1];
	return URL.canParse(request.url) ? (new URL(request.url).searchParams.get('access_token') ?? undefined) : undefined;
}

export function annotateRun(run: Run): AnnotatedRun {
	const linkRedirectUri = linkParam(run, 'redirect_uri');
	const linkClientId = linkParam(run, 'client_id');
	const callbackResult = run.callback && linkRedirectUri ? classifyCallback(run.callback.url, { redirectUri: linkRedirectUri }) : null;
	const issuedCode = callbackResult?.kind === 'code' ? callbackResult.code : undefined;
	const target = run.target.kind;
	const exchangedCodes = new Set<string>();

	const exchanges = run.exchanges.map((exchange): Annotation | null => {
		if (exchange.step === 'token') {
			const sent = sentParameters(exchange.request);
			const sentCode = sent.get('code');
			const annotation = annotateTokenExchange(exchange, {
				target,
				linkRedirectUri,
				linkClientId,
				codeReceivedAt: run.callback?.receivedAt,
				codeExchangedBefore: sentCode !== undefined && exchangedCodes.has(sentCode),
				codeClientId: linkClientId,
				now: exchange.startedAt,
				sentRedirectUri: sent.get('redirect_uri'),
				sentClientId: sent.get('client_id'),
				sentGrantType: sent.get('grant_type'),
				sentCode,
				issuedCode
			});
			if (sentCode !== undefined && succeeded(exchange)) exchangedCodes.add(sentCode);
			return annotation;
		}
		if (exchange.step === 'me') {
			const token = sentToken(exchange.request);
			return annotateMeExchange(exchange, {
				target,
				sentGrantCode: token !== undefined && !token.includes(MASK) && token === issuedCode,
				sentUserAgent: header(exchange.request, 'user-agent') !== undefined,
				sentToken: token !== undefined,
				today: (run.sandboxClock ?? exchange.startedAt).slice(0, 10)
			});
		}
		return null;
	});
	return { callback: callbackResult ? annotateCallback(callbackResult) : null, exchanges };
}
