/**
 * Step 2's outcome: what came back on the redirect URI (interface 3, 4.1, 4.1.1), and the code's 2-hour clock.
 */
import { LIMITS } from '$lib/protocol';
import { parseHttpUrl, uriParts } from '../http/encoding';
import { splitRawQuery } from '../http/form';

export interface QueryPair {
	name: string;
	value: string;
}

export type CallbackResult =
	| { kind: 'code'; code: string; preserved: QueryPair[]; missingExtras: QueryPair[] }
	/** No `code`: the user cancelled. Not an error, and it says nothing about the user's verification status. */
	| { kind: 'cancel'; preserved: QueryPair[]; missingExtras: QueryPair[] }
	| { kind: 'unexpected'; reason: string };

/** The sentence the explorer shows for a cancel, everywhere it shows one. */
export const CANCEL_MEANING =
	'Cancelled by the user: not an error, and it says nothing about the user\'s verification status.';

/** Scheme, authority and path: the part of a redirect URI the service matches on (2.1, 4.1.1). */
export function registeredPart(url: URL): string {
	return `${url.protocol}//${url.host}${url.pathname}`;
}

/** The extra parameters of a redirect URI (4.1.1), without `code`, which the service overwrites. */
function extrasOf(redirectUri: string): QueryPair[] {
	return splitRawQuery(uriParts(redirectUri).query)
		.filter((p) => p.name !== 'code')
		.map(({ name, value }) => ({ name, value }));
}

export function classifyCallback(receivedUrl: string, expected: { redirectUri: string }): CallbackResult {
	const received = parseHttpUrl(receivedUrl);
	if (!received.ok) return { kind: 'unexpected', reason: `The received address cannot be read: ${received.reason}.` };
	const redirect = parseHttpUrl(expected.redirectUri);
	if (!redirect.ok) return { kind: 'unexpected', reason: `The redirect URI of the walk cannot be read: ${redirect.reason}.` };
	if (registeredPart(received.url) !== registeredPart(redirect.url)) {
		return {
			kind: 'unexpected',
			reason: `The browser came back to ${registeredPart(received.url)}, not to the redirect URI ${registeredPart(redirect.url)} (scheme, authority and path must match).`
		};
	}
	const params = splitRawQuery(received.url.search);
	const error = params.find((p) => p.name === 'error');
	if (error) {
		const description = params.find((p) => p.name === 'error_description')?.value;
		return {
			kind: 'unexpected',
			reason: `The redirect carries \`error=${error.value}\`${description ? ` ("${description}")` : ''}. The interface describes no error on the redirect: it comes back with \`code\` on authorisation and without it on cancel. Treat it as "no code" in your app, and ask the operator what it means.`
		};
	}
	const has = (pair: QueryPair) => params.some((p) => p.name === pair.name && p.value === pair.value);
	const extras = extrasOf(expected.redirectUri);
	const preserved = extras.filter(has);
	const missingExtras = extras.filter((pair) => !has(pair));
	const codes = params.filter((p) => p.name === 'code');
	if (codes.length === 0) return { kind: 'cancel', preserved, missingExtras };
	const code = codes[0]?.value ?? '';
	if (codes.length > 1 || code === '')
		return {
			kind: 'unexpected',
			reason:
				codes.length > 1
					? 'The redirect carries `code` more than once; the service should send exactly one.'
					: 'The redirect carries an empty `code`.'
		};
	return { kind: 'code', code, preserved, missingExtras };
}

/** When a code received now stops being exchangeable. The code was issued just before the redirect arrived. */
export function codeExpiresAt(receivedAt: Date): Date {
	return new Date(receivedAt.getTime() + LIMITS.codeTtlSeconds * 1000);
}

/** Whole seconds until `expiresAt`, never below zero. */
export function secondsLeft(expiresAt: Date, now: Date): number {
	return Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000));
}

/** The `code` parameter of a URL (a redirect's Location, an arrival at the redirect URI); undefined when none. */
export function codeIn(url: string | undefined): string | undefined {
	return (url && URL.canParse(url) ? new URL(url).searchParams.get('code') : null) ?? undefined;
}
