/**
 * HTTP as recorded, shared by the explorer (which records what it sends and shows it) and the sandbox (which logs
 * what it serves): headers, requests, responses, why no response came, and the mask that stands for a hidden
 * value. Imports nothing but the protocol, so the sandbox depends on nothing of the explorer.
 */

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
	/** Set when the body was not UTF-8 text: the bytes that are not were decoded as U+FFFD (�), and the page says so. */
	notUtf8?: true;
}

/** Why no usable response came back. */
export type TransportFailure =
	| { kind: 'refused'; message: string } // not sent: the target is not allowed (SSRF guard), or a held secret would go elsewhere
	| { kind: 'unreachable'; message: string } // DNS failure, connection refused or reset
	| { kind: 'timeout'; message: string; timeoutMs: number }
	| { kind: 'too-large'; message: string };

/** What stands in for a hidden value (client secret, token, code, password) wherever one is shown or logged. */
export const MASK = '••••••';

/** MASK's character percent-encoded, as a masked value in a URL's query or a form body is stored (sandbox/mask.ts). */
const ENCODED_MASK_CHAR = /%E2%80%A2/gi;

/**
 * Text with its masks readable, for display: a mask stored percent-encoded in a URL or form body
 * (`code=%E2%80%A2…x4Tw`) shown as the mask (`code=••••••x4Tw`). Only the mask's own encoding is decoded; the rest
 * stays as recorded.
 */
export function readableMasks(text: string): string {
	return text.replace(ENCODED_MASK_CHAR, '•');
}
