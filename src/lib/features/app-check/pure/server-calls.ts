/**
 * What the app's server did in the check's sign-in, read off the flow engine's reconstruction of the check's part of
 * the sandbox's log (engine.ts), as the live page joins it: its exchanges of the code and its me.json calls are the
 * flow's (a me.json call by the token the flow's exchange issued), and its visits of the sign-in link are counted
 * over every flow of the client (an app that sends the user back to sign in starts another).
 */
import { jsonError } from '$lib/flow/diagnose/diagnose-annotation';
import type { RecordedExchange } from '$lib/flow/exchange';
import type { ReconstructedFlow } from '$lib/flow/reconstruct/reconstruct';
import { parseJson } from '$lib/http/json';
import { MeResponse } from '$lib/protocol/schemas';

export interface TokenCall {
	status: number | null;
	/** The `error` of a token error body. */
	error: string | null;
}

export interface ServerCalls {
	/** The app's calls to /oauth/token in the sign-in, in order. */
	exchanges: TokenCall[];
	/** Its me.json calls (their statuses), in order. */
	meCalls: (number | null)[];
	/** Visits of the sandbox's sign-in link for the client: 1 is the sign-in itself, more are the app sending the user back. */
	signInVisits: number;
	/** What the app's me.json calls answered 200 said of the user (the `sbid_number`, the verifications' values): what its page may show. */
	meShown: string[];
	/** Whether the me.json calls were tied to the client by time, carrying no token to tie them by (engine.ts). */
	meTiedByTime?: boolean;
}

const statusOf = (e: RecordedExchange) => e.response?.status ?? null;

/** What a me.json answer says of the user that a page may show: its `sbid_number` and its verifications' values. */
function userValues(body: string): string[] {
	const me = MeResponse.safeParse(parseJson(body));
	if (!me.success) return [];
	return [me.data.sbid_number, ...me.data.verifications.flatMap((v) => Object.values(v))];
}

/** The calls of `flow` (null: the check found no flow of the client), and the link's visits over all the client's `flows`. */
export function serverCalls(flows: readonly ReconstructedFlow[], flow: ReconstructedFlow | null): ServerCalls {
	const of = (step: RecordedExchange['step']) => flow?.exchanges.filter((e) => e.step === step) ?? [];
	const me = of('me');
	return {
		exchanges: of('token').map((e) => {
			const status = statusOf(e);
			return { status, error: status !== null && status >= 400 ? (jsonError(e.response?.body ?? '') ?? null) : null };
		}),
		meCalls: me.map(statusOf),
		meShown: me.filter((e) => statusOf(e) === 200).flatMap((e) => userValues(e.response?.body ?? '')),
		signInVisits: flows.flatMap((f) => f.exchanges).filter((e) => e.step === 'link').length
	};
}
