/** Who sent a request, for per-visitor limits: its address as adapter-node reports it (ADDRESS_HEADER, XFF_DEPTH). */
import type { RequestEvent } from '@sveltejs/kit';
import { visitorOf } from '$lib/http/visitor';
import { isLoopbackAddress } from '$lib/sandbox/admin-access';

/** The request's client address; undefined where the server cannot tell (a request made inside the process). */
export function clientAddress(event: Pick<RequestEvent, 'getClientAddress'>): string | undefined {
	try {
		return event.getClientAddress();
	} catch {
		return undefined;
	}
}

/**
 * The visitor the request counts as for per-visitor limits (an IPv4 address, an IPv6 /64), or null for this
 * machine: the person running the explorer locally, or a reverse proxy that does not pass the visitor's address on
 * (ADDRESS_HEADER), behind which every visitor would be one. A request whose address cannot be told counts as the
 * one visitor `unknown`: counted, never uncounted.
 */
export function requestVisitor(event: Pick<RequestEvent, 'getClientAddress'>): string | null {
	const address = clientAddress(event);
	return isLoopbackAddress(address) ? null : visitorOf(address);
}
