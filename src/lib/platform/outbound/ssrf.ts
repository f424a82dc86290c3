/**
 * The guard in front of every outbound request. A URL passes only when its host may be called (allowlist.ts) and
 * every address its host resolves to is public, unless it is the sandbox or the operator turned on
 * EXPLORER_ALLOW_PRIVATE_TARGETS. The request must then connect to the addresses checked here (see `pinnedLookup`),
 * so a second DNS answer cannot swap in another address.
 *
 * Hostnames come from `new URL()`, which already turns every IPv4 spelling (decimal, hex, octal, short) into
 * dotted decimal and compresses IPv6, so one range check covers them all.
 */
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { ExplorerConfig } from '../config';
import { notAllowedMessage, permissionFor } from './allowlist';
import { setRecent } from '$lib/recent';

/** Ranges no outbound request may reach by default, each with the name a refusal uses. */
const BLOCKED_RANGES: [network: string, prefix: number, family: 'ipv4' | 'ipv6', name: string][] = [
	['0.0.0.0', 8, 'ipv4', 'an unspecified ("this network") address'],
	['10.0.0.0', 8, 'ipv4', 'a private address'],
	['100.64.0.0', 10, 'ipv4', 'a carrier-grade NAT address'],
	['127.0.0.0', 8, 'ipv4', 'a loopback address'],
	['169.254.0.0', 16, 'ipv4', 'a link-local address (cloud metadata lives here)'],
	['172.16.0.0', 12, 'ipv4', 'a private address'],
	['192.168.0.0', 16, 'ipv4', 'a private address'],
	['198.18.0.0', 15, 'ipv4', 'a benchmarking address (not routed on the internet; some networks use it inside)'],
	['224.0.0.0', 4, 'ipv4', 'a multicast address'],
	['240.0.0.0', 4, 'ipv4', 'a reserved or broadcast address'],
	['::', 128, 'ipv6', 'the unspecified address'],
	['::1', 128, 'ipv6', 'a loopback address'],
	['::ffff:0:0', 96, 'ipv6', 'an IPv4-mapped IPv6 address'],
	// After :: and ::1 above, which it also contains, so those keep their own names.
	['::', 96, 'ipv6', 'an IPv4-compatible IPv6 address (deprecated; it embeds an IPv4 address)'],
	['::ffff:0:0:0', 96, 'ipv6', 'an IPv4-translated address (it reaches an IPv4 address)'],
	['64:ff9b::', 96, 'ipv6', 'a NAT64 address (it reaches an IPv4 address)'],
	['64:ff9b:1::', 48, 'ipv6', 'a local-use NAT64 address (it reaches an IPv4 address)'],
	['2002::', 16, 'ipv6', 'a 6to4 address (it embeds an IPv4 address)'],
	['100::', 64, 'ipv6', 'a discard-only address'],
	['fc00::', 7, 'ipv6', 'a unique-local (private) address'],
	['fe80::', 10, 'ipv6', 'a link-local address'],
	['ff00::', 8, 'ipv6', 'a multicast address']
];

const blockLists = BLOCKED_RANGES.map(([network, prefix, family, name]) => {
	const list = new BlockList();
	list.addSubnet(network, prefix, family);
	return { list, family, name, range: `${network}/${prefix}` };
});

/** Why `address` must not be called by default, or null when it is a public address. */
export function blockedReason(address: string): string | null {
	const family = isIP(address) === 6 ? 'ipv6' : isIP(address) === 4 ? 'ipv4' : null;
	if (family === null) return 'not an IP address';
	// A BlockList also matches an IPv4 rule against its IPv4-mapped IPv6 form, so check the family's own rules.
	const hit = blockLists.find((b) => b.family === family && b.list.check(address, family));
	return hit ? `${hit.name} (${hit.range})` : null;
}

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

/**
 * `resolve` with its answers kept for `ttlMs` (failures are not kept). Safe for the guard: every request still
 * checks the addresses, cached or not, and connects only to them; a cache only makes a rebinding DNS server's
 * second answer arrive later.
 */
export function cachingResolver(resolve: Resolver, ttlMs: number, options: { maxEntries?: number; now?: () => number } = {}): Resolver {
	const { maxEntries = 256, now = Date.now } = options;
	const answers = new Map<string, { addresses: LookupAddress[]; until: number }>();
	return async (hostname) => {
		const cached = answers.get(hostname);
		if (cached && cached.until > now()) return cached.addresses;
		const addresses = await resolve(hostname);
		setRecent(answers, hostname, { addresses, until: now() + ttlMs }, maxEntries);
		return addresses;
	};
}

/** How long the system resolver's answers are reused: a getaddrinfo call is a trip to libuv's thread pool. */
const DNS_CACHE_MS = 10_000;

const systemResolver: Resolver = cachingResolver((hostname) => dnsLookup(hostname, { all: true, verbatim: true }), DNS_CACHE_MS);

export type OutboundCheck =
	| { ok: true; address: string; addresses: LookupAddress[] }
	| { ok: false; kind: 'refused' | 'unreachable'; message: string };

/** Decides whether `url` may be called, and at which addresses. Never throws. */
export async function checkOutboundUrl(url: string, config: ExplorerConfig, resolve: Resolver = systemResolver): Promise<OutboundCheck> {
	if (!URL.canParse(url)) return { ok: false, kind: 'refused', message: `"${url}" is not a URL.` };
	const parsed = new URL(url);
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		return { ok: false, kind: 'refused', message: `Only http and https URLs are called, not ${parsed.protocol.slice(0, -1)}.` };
	}
	if (parsed.username || parsed.password) {
		return { ok: false, kind: 'refused', message: 'A URL with a user name or password in it is not called.' };
	}
	const permission = permissionFor(parsed, config);
	if (!permission) return { ok: false, kind: 'refused', message: notAllowedMessage(parsed, config) };

	const hostname = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
	let addresses: LookupAddress[];
	if (isIP(hostname)) {
		addresses = [{ address: hostname, family: isIP(hostname) }];
	} else {
		try {
			addresses = await resolve(hostname);
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code ?? 'error';
			return { ok: false, kind: 'unreachable', message: `The host name ${hostname} could not be resolved (DNS: ${code}).` };
		}
		if (addresses.length === 0) {
			return { ok: false, kind: 'unreachable', message: `The host name ${hostname} resolved to no address.` };
		}
	}

	// A host allowed only by the loopback rule is never called on an internal address, whatever the operator set.
	if (permission === 'public-https' || (permission === 'allowlist' && !config.allowPrivateTargets)) {
		for (const { address } of addresses) {
			const reason = blockedReason(address);
			if (reason) {
				return {
					ok: false,
					kind: 'refused',
					message:
						`${parsed.host} resolves to ${address}, ${reason}. The explorer does not call internal addresses ` +
						(permission === 'public-https'
							? 'except hosts the operator lists in EXPLORER_ALLOWED_HOSTS with EXPLORER_ALLOW_PRIVATE_TARGETS=on.'
							: 'unless the operator sets EXPLORER_ALLOW_PRIVATE_TARGETS=on.')
				};
			}
		}
	}
	return { ok: true, address: addresses[0]!.address, addresses };
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that answers only with the addresses already checked, so the connection goes where
 * the guard looked, whatever DNS says a moment later.
 */
export function pinnedLookup(addresses: LookupAddress[]) {
	return (_hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
		const first = addresses[0]!;
		if (options.all) callback(null, addresses);
		else callback(null, first.address, first.family);
	};
}
