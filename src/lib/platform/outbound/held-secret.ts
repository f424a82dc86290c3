/**
 * A client secret the explorer's server holds (the sandbox's for its demo client, or one a person gave for their
 * target), bound when it is taken to the one origin it belongs to: the accounts host whose token endpoint checks
 * it. A walk takes it out only for a request to that origin (`secretFor`), and the outbound proxy refuses any
 * request that carries it anywhere else (`misdirectedSecret`), so no change of target, tamper or resend can hand
 * it to another host.
 */
import { containsForm } from '$lib/http/secrets';
import type { OutboundRequest } from './outbound';

export interface HeldSecret {
	readonly value: string;
	/** The origin of the accounts host it was given for, e.g. `http://localhost:3002`. */
	readonly origin: string;
}

const originOf = (url: string): string | null => (URL.canParse(url) ? new URL(url).origin : null);

/** `value`, bound to the origin of `accountsUrl`. */
export function holdSecret(value: string, accountsUrl: string): HeldSecret {
	const origin = originOf(accountsUrl);
	if (origin === null) throw new Error('A secret is held only for a target with a valid accounts URL.');
	return { value, origin };
}

/** The held secret's value for a request to `url`; undefined for any other origin (or no secret). */
export function secretFor(held: HeldSecret | null, url: string): string | undefined {
	return held !== null && originOf(url) === held.origin ? held.value : undefined;
}

/** Whether any part of the request (URL, a header, the body) carries `value` in any encoding. */
function carries(request: OutboundRequest, value: string): boolean {
	const texts = [request.url, ...request.headers.map((h) => h.value), ...(request.body === null ? [] : [request.body])];
	return texts.some((text) => containsForm(text, value));
}

/**
 * Why the request may not be sent: it carries a held secret to an origin other than its own (named, never the
 * value); null when it may.
 */
export function misdirectedSecret(request: OutboundRequest, held: readonly HeldSecret[]): string | null {
	const origin = originOf(request.url);
	const misdirected = held.find((secret) => secret.value !== '' && secret.origin !== origin && carries(request, secret.value));
	if (!misdirected) return null;
	return `Not sent: this request carries the client secret the explorer holds for ${misdirected.origin}, and it goes to ${origin ?? 'another address'}. A secret the explorer holds goes only to the host it was given for: give this target's own client secret in step 1.`;
}
