/** Who sent a request, for per-visitor limits: its address as adapter-node reports it (ADDRESS_HEADER, XFF_DEPTH). */
import type { RequestEvent } from '@sveltejs/kit';
import { visitorOf } from '$lib/http/visitor';
import { isLoopbackAddress } from '$lib/sandbox/admin-access';
import { config } from './config';

type AddressedRequest = Pick<RequestEvent, 'getClientAddress' | 'request'>;

/** The request's client address; undefined where the server cannot tell (a request made inside the process). */
export function clientAddress(event: Pick<RequestEvent, 'getClientAddress'>): string | undefined {
	try {
		return event.getClientAddress();
	} catch {
		return undefined;
	}
}

/** Headers in which reverse proxies pass on the address they received a request from. */
const PROXY_ADDRESS_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

/**
 * The proxy header (as named in PROXY_ADDRESS_HEADERS) of a request that reached the explorer from this machine
 * while ADDRESS_HEADER names none: a reverse proxy on this machine whose visitors all look local. Null otherwise.
 */
export function unreadProxyHeader(address: string | undefined, headers: Pick<Headers, 'has'>, addressHeader: string | null): string | null {
	if (addressHeader !== null || !isLoopbackAddress(address)) return null;
	return PROXY_ADDRESS_HEADERS.find((name) => headers.has(name)) ?? null;
}

let warnedOfProxy = false;

/** Says once, on the console, that per-visitor limits count no one behind this proxy, and what to set. */
function warnOfUnreadProxy(header: string): void {
	if (warnedOfProxy) return;
	warnedOfProxy = true;
	console.warn(
		`Requests reach the explorer through a reverse proxy (they carry ${header}), but ADDRESS_HEADER is not set: every visitor looks like this machine, so the per-visitor limits (sessions, saved runs) count no one. ` +
			'Set ADDRESS_HEADER to the header that carries the visitor\'s address (X-Forwarded-For with XFF_DEPTH set to the number of proxies, or X-Real-IP) and restart.'
	);
}

/**
 * The visitor the request counts as for per-visitor limits (an IPv4 address, an IPv6 /64), or null for this
 * machine: the person running the explorer locally, or a reverse proxy that does not pass the visitor's address on
 * (ADDRESS_HEADER), behind which every visitor would be one (said once on the console). A request whose address
 * cannot be told counts as the one visitor `unknown`: counted, never uncounted.
 */
export function requestVisitor(event: AddressedRequest): string | null {
	const address = clientAddress(event);
	if (!isLoopbackAddress(address)) return visitorOf(address);
	const proxied = unreadProxyHeader(address, event.request.headers, config().addressHeader);
	if (proxied !== null) warnOfUnreadProxy(proxied);
	return null;
}
