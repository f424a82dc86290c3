/**
 * What the browser sees of a walk: the server's session without the client secret or raw tokens. Built by
 * `walkView` on the server (src/lib/features/walk/walk.ts), rendered by the explorer's pages.
 */
import type { Annotation } from './diagnose/diagnose';
import type { CallbackResult } from './callback';
import type { RecordedExchange } from './exchange';
import type { Finding } from './link/lint';

export type TargetKind = 'sandbox' | 'custom';

export interface TargetView {
	kind: TargetKind;
	authUrl: string;
	accountsUrl: string;
}

export interface ClientView {
	clientId: string;
	/** Never the secret: whether one is set, and its last characters when it is long enough to show them safely. */
	secret: { set: boolean; last?: string };
	redirectUri: string;
	supergroup: string;
	country: string;
	responseType: string;
	extraLinkParams: [string, string][];
}

export interface CallbackView {
	url: string;
	receivedAt: string;
	result: CallbackResult;
	/** When the code stops being exchangeable (2 hours after it arrived), for a code. */
	codeExpiresAt?: string;
}

export interface ExchangeEntry {
	exchange: RecordedExchange;
	annotation: Annotation;
	curl: string;
}

export interface WalkView {
	target: TargetView;
	client: ClientView;
	/** The link the browser was sent to, once step 2 started. */
	link: string | null;
	/** Findings only the server can make (the secret's value in the link). */
	serverFindings: Finding[];
	callback: CallbackView | null;
	exchanges: ExchangeEntry[];
	/** Whether an access token from this walk is held on the server (never the token itself). */
	hasAccessToken: boolean;
	/** The callback's code was exchanged successfully: it works once (2.2), so its countdown no longer matters. */
	codeExchanged: boolean;
	/** The sandbox's clock, when the target is the sandbox. */
	sandboxNow: string | null;
	/** The saved run recording this walk (its permalink is /runs/{runId}), once the walk has begun. */
	runId?: string | null;
	/**
	 * The walk has begun but is not saved: 'first-visit', its redirect arrived on a first visit; 'not-started', it
	 * arrived when no authorisation page opened from this walk was waiting for it (another tab, app or site sent
	 * it). In both the next step saves it. `refused`: the saved runs' limits refused the save, with what to do.
	 */
	unsaved?: 'first-visit' | 'not-started' | { refused: string };
	/**
	 * A redirect that arrived when the walk, already begun, was not waiting for one: held aside, the walk unchanged,
	 * until the person uses it (it then starts a run of its own) or ignores it.
	 */
	strayCallback?: { url: string };
}
