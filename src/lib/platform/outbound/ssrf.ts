/**
 * The guard in front of every outbound request. A URL passes only when its host may be called (allowlist.ts) and
 * every address its host resolves to is public, unless it is the sandbox or the operator turned on
 * EXPLORER_ALLOW_PRIVATE_TARGETS. The request must then connect to the addresses checked here (see `pinnedLookup`),
 * so a second DNS answer cannot swap in another address.
 *
 * Hostnames come from `new URL()`, which already turns every IPv4 spelling (decimal, hex, octal, short) into
 * dotted decimal and compresses IPv6, so one range check covers them all. Public means what ipaddr.js, which
 * follows IANA's special-purpose address registries, calls 'unicast' (and, for IPv6, inside 2000::/3).
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { ExplorerConfig } from '../config';
import { notAllowedMessage, permissionFor } from './allowlist';
import { setRecent } from '$lib/recent';

/**
 * What each range ipaddr.js's `range()` names (the IANA special-purpose registries) is called in a refusal. A name
 * missing here (one a newer ipaddr.js adds) is still refused, under the library's own name.
 */
const RANGE_NAMES: Record<string, string> = {
	unspecified: 'an unspecified ("this network") address (RFC 1122, RFC 4291)',
	broadcast: 'the broadcast address (RFC 919)',
	multicast: 'a multicast address (RFC 5771, RFC 4291)',
	linkLocal: 'a link-local address (RFC 3927, RFC 4291; cloud metadata lives here)',
	loopback: 'a loopback address (RFC 1122, RFC 4291)',
	carrierGradeNat: 'a carrier-grade NAT address (RFC 6598)',
	private: 'a private address (RFC 1918)',
	reserved: 'a reserved address (RFC 6890: IETF protocol assignments, documentation, benchmarking or future use; not routed on the internet)',
	benchmarking: 'a benchmarking address (RFC 5180; not routed on the internet, some networks use it inside)',
	as112: 'an AS112 DNS sink address (RFC 7534, RFC 7535)',
	as112v6: 'an AS112 DNS sink address (RFC 7534, RFC 7535)',
	amt: 'an AMT relay anycast address (RFC 7450)',
	uniqueLocal: 'a unique-local (private) address (RFC 4193)',
	ipv4Mapped: 'an IPv4-mapped IPv6 address (RFC 4291; it reaches an IPv4 address)',
	rfc6145: 'an IPv4-translated address (RFC 6145; it reaches an IPv4 address)',
	rfc6052: 'a NAT64 address (RFC 6052, RFC 8215; it reaches an IPv4 address)',
	'6to4': 'a 6to4 address (RFC 3056; it embeds an IPv4 address)',
	teredo: 'a Teredo address (RFC 4380; it embeds an IPv4 address)',
	deprecatedSiteLocal: 'a site-local address (RFC 3879: deprecated, private)',
	discard: 'a discard-only address (RFC 6666)',
	deprecatedOrchid: 'an ORCHID address (RFC 4843; not routable)',
	orchid2: 'an ORCHIDv2 address (RFC 7343; not routable)',
	droneRemoteIdProtocolEntityTags: 'a drone remote ID tag (RFC 9374; not routable)',
	segmentRouting: 'a segment routing identifier (RFC 9602; not routed on the internet)'
};

/**
 * `range()` calls only the registry's entries special; IPv6 also has space IANA never handed out for public use:
 * the deprecated IPv4-compatible form (::/96, an IPv4 address behind 96 zero bits, named for its own sake) and
 * everything outside the global unicast block 2000::/3 (RFC 4291, IANA's IPv6 address space registry).
 */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * An IPv6 address with its dotted tail written in hex, as the URL parser serialises it: ipaddr.js reads the
 * IPv4-compatible '::10.0.0.1' as IPv4-mapped, other bits than the ones a connection uses. A zone does not change
 * the range.
 */
function inHex(address: string): string {
	return isIP(address) === 6 ? new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1) : address;
}

/** Why `address` must not be called by default, or null when it is a public unicast address. */
export function blockedReason(address: string): string | null {
	if (isIP(address) === 0) return 'not an IP address';
	// parse, not process: an IPv4-mapped address stays IPv6 and is refused as such, whatever it embeds.
	const parsed = ipaddr.parse(inHex(address));
	const range = parsed.range() as string;
	if (range !== 'unicast') return RANGE_NAMES[range] ?? `a special-purpose address (${range})`;
	if (parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE)) return 'an IPv4-compatible IPv6 address (RFC 4291: deprecated; it embeds an IPv4 address)';
	if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST)) return 'an address outside the IPv6 global unicast space (2000::/3, RFC 4291)';
	return null;
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
