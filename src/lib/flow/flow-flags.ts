/**
 * Faults across time of one flow, part of crossFlags (flags.ts): an exchange made after the code's 2 hours, a token
 * still used after the user asked for deletion, and, for a flow the live view split from the one before it, a new
 * sign-in started right after that one's cancel (the cancel loop; browser-flags.ts finds it inside one record).
 */
import { LIMITS, CODE_VALIDITY, SECTIONS, durationWords, errorCause } from '$lib/protocol';
import { cancelLoopAdvice } from './browser/cancel-advice';
import type { CrossFlag } from './flags';
import type { ReconstructedFlow } from './reconstruct/reconstruct';
import { requestParam } from './request-params';
import { refusalsAsSpecified } from './diagnose/refused-as-specified';
import { callbackTime, exchangeTime, flowMs } from './flow-time';

/** What the rules read of a flow: its link, redirect and requests in order, and whether it followed a cancel. */
export type FlaggedFlow = Pick<ReconstructedFlow, 'link' | 'callback' | 'exchanges'> & {
	followsCancel?: FollowedCancel | null;
	/** Its refusals as specified (diagnose/refused-as-specified.ts), when the caller found them already. */
	refused?: ReadonlySet<string>;
};

/** The live view's finding that a flow's link came right after another flow's cancel (reconstruct.ts). */
export type FollowedCancel = NonNullable<ReconstructedFlow['followsCancel']>;

function lateExchangeFlags(flow: FlaggedFlow): CrossFlag[] {
	const callback = flow.callback;
	if (!callback) return [];
	const issuedAt = flowMs(callbackTime(callback));
	return flow.exchanges.flatMap((exchange, i): CrossFlag[] => {
		const elapsed = Math.floor((flowMs(exchangeTime(exchange)) - issuedAt) / 1000);
		if (exchange.step !== 'token' || requestParam(exchange.request, 'grant_type') === 'refresh_token' || elapsed <= LIMITS.codeTtlSeconds) return [];
		return [
			{
				id: 'exchange-after-expiry',
				severity: 'error',
				message: `Exchange ${i + 1} (token) came ${durationWords(elapsed)} after the redirect delivered the code, which can be exchanged for ${CODE_VALIDITY} only (8). The service answers invalid_grant.`,
				section: SECTIONS.limits,
				fix: errorCause('token-invalid-grant', 'expired').fix,
				exchangeId: exchange.id
			}
		];
	});
}

function cancelLoopFlags(flow: FlaggedFlow): CrossFlag[] {
	if (!flow.followsCancel) return [];
	const link = flow.exchanges.find((e) => e.step === 'link');
	const advice = cancelLoopAdvice(flow.exchanges);
	return [
		{
			id: 'cancel-loop',
			severity: 'error',
			message: `A new sign-in began ${flow.followsCancel.secondsAfter} s after the user cancelled: the app sends the user straight back to the authorisation page, so they can never leave. ${advice.cause}`,
			section: SECTIONS.states,
			fix: advice.fix,
			...(link ? { exchangeId: link.id } : {})
		}
	];
}

function deletedUserFlags(flow: FlaggedFlow): CrossFlag[] {
	const refused = flow.refused ?? refusalsAsSpecified(flow);
	let told = false;
	return flow.exchanges.flatMap((exchange, i): CrossFlag[] => {
		if (exchange.step !== 'me' || exchange.response?.status !== 404) return [];
		const again = told;
		told = true;
		// The first 404 after a successful exchange is the service as specified, and the verdict says so; it is told
		// only as the start of a later fault (the token used again).
		if (!again && refused.has(exchange.id) && !flow.exchanges.slice(i + 1).some((e) => e.step === 'me')) return [];
		return [
			{
				id: again ? 'token-used-after-deletion' : 'deletion-requested',
				severity: again ? 'error' : 'warning',
				message: again
					? `Exchange ${i + 1} (me.json) uses the token again after me.json answered 404: the user asked for their account to be deleted, and the token is of no more use.`
					: `Exchange ${i + 1} (me.json) answered 404: the user asked for their account to be deleted after the token was granted.`,
				section: SECTIONS.meEndpoint,
				fix: errorCause('me-not-found', 'deletion-requested').fix,
				exchangeId: exchange.id
			}
		];
	});
}

/** The flow's own flags, errors first. */
export function flowFlags(flow: FlaggedFlow): CrossFlag[] {
	const flags = [...lateExchangeFlags(flow), ...cancelLoopFlags(flow), ...deletedUserFlags(flow)];
	return flags.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
}
