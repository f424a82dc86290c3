/**
 * Annotations of a recorded run, derived from the run alone: what was sent is read back from each request, the
 * link and callback give what the walk knew. A saved run, its permalink and an imported HAR of it are therefore
 * annotated identically, with no state beyond the run.
 */
import { annotateCallback, annotateMeExchange, annotateTokenExchange, type Annotation } from '$lib/flow/diagnose';
import { classifyCallback } from '$lib/flow/callback';
import type { RecordedExchange } from '$lib/flow/exchange';
import { MASK } from '$lib/http/exchange';
import { meCredential, requestClientId, requestHeader, requestParam } from './request-params';
import type { Run } from './run';

export interface AnnotatedRun {
	callback: Annotation | null;
	/** One per exchange, in order; null for steps that are not annotated (the link, the redirect). */
	exchanges: (Annotation | null)[];
}

function linkParam(run: Run, name: string): string | undefined {
	return run.link && URL.canParse(run.link) ? (new URL(run.link).searchParams.get(name) ?? undefined) : undefined;
}

function succeeded(exchange: RecordedExchange): boolean {
	return exchange.response?.status === 200;
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
			const request = exchange.request;
			const sentCode = requestParam(request, 'code');
			const annotation = annotateTokenExchange(exchange, {
				target,
				linkRedirectUri,
				linkClientId,
				codeReceivedAt: run.callback?.receivedAt,
				codeExchangedBefore: sentCode !== undefined && exchangedCodes.has(sentCode),
				codeClientId: linkClientId,
				now: exchange.startedAt,
				sentRedirectUri: requestParam(request, 'redirect_uri'),
				sentClientId: requestClientId(request),
				sentGrantType: requestParam(request, 'grant_type'),
				sentCode,
				issuedCode
			});
			if (sentCode !== undefined && succeeded(exchange)) exchangedCodes.add(sentCode);
			return annotation;
		}
		if (exchange.step === 'me') {
			const token = meCredential(exchange.request);
			return annotateMeExchange(exchange, {
				target,
				sentGrantCode: token !== undefined && !token.includes(MASK) && token === issuedCode,
				sentUserAgent: requestHeader(exchange.request, 'user-agent') !== undefined,
				sentToken: token !== undefined,
				today: (run.sandboxClock ?? exchange.startedAt).slice(0, 10)
			});
		}
		return null;
	});
	return { callback: callbackResult ? annotateCallback(callbackResult) : null, exchanges };
}
