/**
 * One HTTP exchange as the explorer recorded it: the exact request the server sent and the exact response it got
 * (or why there was none), for one step of the flow. Shared by the server (which records) and the browser (which
 * shows). Secrets and tokens are masked before an exchange leaves the server; see `masked`.
 */
import type { RecordedRequest, RecordedResponse, TransportFailure } from '../http/exchange';

/**
 * Which step of the flow an exchange is, one meaning on every channel: `link` the authorisation link; `sign-in` the
 * service's own sign-in pages after it (the sandbox's, in its log; a scenario's headless decision); `arrival` the
 * browser at the app once redirected (its arrival at the redirect URI, or the redirect there when the arrival was not
 * recorded, and the calls the app's page makes with what arrived), as a browser's HAR shows it; `token` and `me` the
 * two calls of the app's server. Saved runs and exports before 2026-11 named both `sign-in` and `arrival`
 * `authorise`: the runs' `legacy-step.ts` reads them.
 */
export const STEP_IDS = ['link', 'sign-in', 'arrival', 'token', 'me'] as const;
export type StepId = (typeof STEP_IDS)[number];

/** A value hidden in a recorded exchange, and which kind it was. */
export interface MaskedValue {
	/** `sandbox_key`: a sandbox workspace's key, or the sandbox's admin or internal-work credential. */
	kind: 'client_secret' | 'access_token' | 'refresh_token' | 'code' | 'sandbox_key';
	/** Where it appeared, for the "what was masked" note, e.g. "query parameter client_secret". */
	where: string;
	/** Short visible tail, e.g. "…a1b2". */
	hint: string;
}

export interface RecordedExchange {
	id: string;
	step: StepId;
	/** What the user asked for: e.g. "exchange the code (query string)", "tamper: wrong secret". */
	label: string;
	/** Real time, ISO 8601 (the live log's: the sandbox's clock). */
	startedAt: string;
	/** Against the sandbox, how far its clock was ahead of `startedAt` then: what codes expire by (flow-time.ts). */
	sandboxOffsetMs?: number;
	durationMs: number;
	request: RecordedRequest;
	response: RecordedResponse | null;
	failure: TransportFailure | null;
	masked: MaskedValue[];
	/** Evidence added to a saved run after it was made (support/join.ts): where the exchange came from. */
	evidence?: ExchangeEvidence;
	/**
	 * The last characters of the access token this exchange issued (token) or presented (me.json), kept when the
	 * token itself is redacted, as the sandbox's log keeps them: what matches a me.json to its token exchange.
	 */
	tokenTails?: readonly string[];
	/**
	 * The headers a sanitised HAR export removed from this exchange (support/sanitised.ts), when it came from one: what
	 * they carried is unknown, not missing. Only this exchange's own: evidence joined to its run keeps its own mark.
	 */
	strippedHeaders?: readonly string[];
}

/** Recorded but never sent (a pasted command): no response and no failure. Its own state, not a failure. */
export function isUnsent(exchange: Pick<RecordedExchange, 'response' | 'failure'>): boolean {
	return exchange.response === null && exchange.failure === null;
}

/** Where evidence added to a run came from. */
export const EVIDENCE_SOURCES = ['curl', 'http', 'har', 'sandbox-log', 'sent'] as const;
export type EvidenceSource = (typeof EVIDENCE_SOURCES)[number];

export interface ExchangeEvidence {
	source: EvidenceSource;
	/** Whether `startedAt` is when it happened (a HAR, the sandbox's log, a send) or only when it was pasted. */
	timed: boolean;
	/** How it was placed among the run's exchanges. */
	matchedBy: 'time' | 'code' | 'token' | 'step';
}
