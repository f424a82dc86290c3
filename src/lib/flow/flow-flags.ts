/**
 * Faults across the requests of one flow that the run's cross-request flags (support/flags.ts) do not cover, seen
 * as a flow happens: an exchange made after the code's 2 hours, a new sign-in started right after a cancel (the
 * cancel loop), a token still used after the user asked for deletion, `state` in the link (a finding of the one
 * link linter, raised to a warning here, since client libraries that check it turn every sign-in into a failure).
 */
import { LIMITS, CODE_VALIDITY, SECTIONS, durationWords, errorRow } from '$lib/protocol';
import { uriParts } from '../http/encoding';
import { splitRawQuery } from '../http/form';
import type { RecordedExchange } from './exchange';
import { lintLink } from './lint';
import type { ReconstructedFlow } from './reconstruct';

/** The shape of support/flags.ts's CrossFlag, which the flow engine will own once the run's flags move here. */
export interface CrossFlag {
	id: string;
	severity: 'error' | 'warning';
	message: string;
	/** Section of the interface, from SECTIONS. */
	section: string;
	fix: string;
	/** The exchange the flag is about, when it is about one. */
	exchangeId?: string;
}

/** What the rules read of a flow: its link, redirect and requests in order, and whether it followed a cancel. */
export type FlaggedFlow = Pick<ReconstructedFlow, 'link' | 'callback' | 'exchanges' | 'followsCancel'>;

const fix = (rowId: Parameters<typeof errorRow>[0], causeId: string) => errorRow(rowId).causes.find((c) => c.id === causeId)?.fix ?? '';

const grantType = (exchange: RecordedExchange) =>
	splitRawQuery(`${uriParts(exchange.request.url).query}&${exchange.request.body ?? ''}`).find((p) => p.name === 'grant_type')?.value;

function lateExchangeFlags(flow: FlaggedFlow): CrossFlag[] {
	const callback = flow.callback;
	if (!callback) return [];
	const issuedAt = Date.parse(callback.receivedAt);
	return flow.exchanges.flatMap((exchange, i): CrossFlag[] => {
		const elapsed = Math.floor((Date.parse(exchange.startedAt) - issuedAt) / 1000);
		if (exchange.step !== 'token' || grantType(exchange) === 'refresh_token' || elapsed <= LIMITS.codeTtlSeconds) return [];
		return [
			{
				id: 'exchange-after-expiry',
				severity: 'error',
				message: `Exchange ${i + 1} (token) came ${durationWords(elapsed)} after the redirect delivered the code, which can be exchanged for ${CODE_VALIDITY} only (8). The service answers invalid_grant.`,
				section: SECTIONS.limits,
				fix: fix('token-invalid-grant', 'expired'),
				exchangeId: exchange.id
			}
		];
	});
}

function cancelLoopFlags(flow: FlaggedFlow): CrossFlag[] {
	if (!flow.followsCancel) return [];
	const link = flow.exchanges.find((e) => e.step === 'link');
	return [
		{
			id: 'cancel-loop',
			severity: 'error',
			message: `A new sign-in began ${flow.followsCancel.secondsAfter} s after the user cancelled: the app sends the user straight back to the authorisation page, so they can never leave. The usual cause is passport-oauth2, which starts a new sign-in whenever the redirect carries neither \`code\` nor \`error\`, and the service's cancel carries neither (3).`,
			section: SECTIONS.states,
			fix: 'Treat a redirect without `code` as a cancel: show the user a page saying they cancelled (with a way to try again), and do not start a new sign-in by yourself. With passport-oauth2, handle the callback yourself when `code` is missing before calling `passport.authenticate`.',
			...(link ? { exchangeId: link.id } : {})
		}
	];
}

function deletedUserFlags(flow: FlaggedFlow): CrossFlag[] {
	let told = false;
	return flow.exchanges.flatMap((exchange, i): CrossFlag[] => {
		if (exchange.step !== 'me' || exchange.response?.status !== 404) return [];
		const again = told;
		told = true;
		return [
			{
				id: again ? 'token-used-after-deletion' : 'deletion-requested',
				severity: again ? 'error' : 'warning',
				message: again
					? `Exchange ${i + 1} (me.json) uses the token again after me.json answered 404: the user asked for their account to be deleted, and the token is of no more use.`
					: `Exchange ${i + 1} (me.json) answered 404: the user asked for their account to be deleted after the token was granted.`,
				section: SECTIONS.meEndpoint,
				fix: fix('me-not-found', 'deletion-requested'),
				exchangeId: exchange.id
			}
		];
	});
}

function stateFlags(flow: FlaggedFlow): CrossFlag[] {
	if (flow.link === null) return [];
	const state = lintLink(flow.link).find((f) => f.id === 'state-parameter');
	const link = flow.exchanges.find((e) => e.step === 'link');
	return state
		? [{ id: 'state-in-link', severity: 'warning', message: state.message, section: state.section, fix: state.fix, ...(link ? { exchangeId: link.id } : {}) }]
		: [];
}

/** The flow's own flags, errors first. */
export function flowFlags(flow: FlaggedFlow): CrossFlag[] {
	const flags = [...lateExchangeFlags(flow), ...cancelLoopFlags(flow), ...deletedUserFlags(flow), ...stateFlags(flow)];
	return flags.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
}
