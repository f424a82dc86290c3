/**
 * One HTTP exchange as the explorer recorded it: the exact request the server sent and the exact response it got
 * (or why there was none). Shared by the server (which records) and the browser (which shows). Secrets and tokens
 * are masked before an exchange leaves the server; see `masked`.
 */

export type StepId = 'link' | 'authorise' | 'token' | 'me';

export interface HttpHeader {
	name: string;
	value: string;
}

export interface RecordedRequest {
	method: string;
	/** Absolute URL exactly as sent (after masking, where masked). */
	url: string;
	headers: HttpHeader[];
	body: string | null;
}

export interface RecordedResponse {
	status: number;
	statusText: string;
	headers: HttpHeader[];
	/** Body as text (decoded as UTF-8), cut at the recording limit. */
	body: string;
	/** True when the body was longer than the recording limit and was cut. */
	truncated: boolean;
}

/** Why no usable response came back. */
export type TransportFailure =
	| { kind: 'refused'; message: string } // the target is not allowed by the operator (SSRF guard)
	| { kind: 'unreachable'; message: string } // DNS failure, connection refused or reset
	| { kind: 'timeout'; message: string; timeoutMs: number }
	| { kind: 'too-large'; message: string };

/** A value hidden in a recorded exchange, and which kind it was. */
export interface MaskedValue {
	kind: 'client_secret' | 'access_token' | 'refresh_token' | 'code';
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
	startedAt: string; // ISO 8601
	durationMs: number;
	request: RecordedRequest;
	response: RecordedResponse | null;
	failure: TransportFailure | null;
	masked: MaskedValue[];
}

export const MASK = '••••••';
