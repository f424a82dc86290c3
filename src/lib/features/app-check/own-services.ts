/**
 * This deployment's own services, which the app check must never drive as "the app": the sandbox's two hosts and
 * the explorer. Compared after resolution, not by name: `127.0.0.1:3001`, `[::1]:3001`, `0.0.0.0:3001` or the
 * machine's host name reach the sandbox on `localhost:3001` as surely as its own name does, and a browser the
 * server drives there acts from this machine (where the control API trusts loopback).
 */
import { BlockList, isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { effectivePort } from '../../platform/outbound/allowlist';
import type { ExplorerConfig } from '../../platform/config';

/** Addresses every connection to which stays on this machine: loopback and "unspecified" (0.0.0.0 and :: reach local listeners). */
const LOCAL_RANGES = new BlockList();
LOCAL_RANGES.addSubnet('127.0.0.0', 8, 'ipv4');
LOCAL_RANGES.addSubnet('0.0.0.0', 8, 'ipv4');
LOCAL_RANGES.addAddress('::1', 'ipv6');
LOCAL_RANGES.addAddress('::', 'ipv6');

const bare = (host: string) => host.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/** Whether a connection to `address` reaches this machine: a local range (IPv4-mapped forms too) or an interface's own address. */
export function isThisMachineAddress(address: string): boolean {
	const family = isIP(address);
	if (family === 0) return false;
	if (LOCAL_RANGES.check(address, family === 6 ? 'ipv6' : 'ipv4')) return true;
	const own = Object.values(networkInterfaces()).flatMap((list) => list ?? []);
	return own.some((i) => bare(i.address.replace(/%.*$/, '')) === bare(address));
}

/**
 * Whether the host name (or address) of a URL names this machine without asking DNS: localhost, its host name, an
 * address of it, and `names` (the operator's ALLOWED_HOST_NAMES, names requests may address this machine by).
 */
export function namesThisMachine(host: string, names: readonly string[] = []): boolean {
	const name = bare(host).replace(/\.$/, '');
	return name === 'localhost' || name.endsWith('.localhost') || name === hostname().toLowerCase() || names.some((n) => n.toLowerCase() === name) || isThisMachineAddress(name);
}

interface OwnService {
	what: string;
	origin: URL;
}

/** The sandbox's hosts (as the run reaches them, and on the ports they listen on here) and the explorer (its public origin and its port here). */
function ownServices(config: ExplorerConfig): OwnService[] {
	const auth = "the sandbox itself (its authorisation host)";
	const accounts = "the sandbox itself (its accounts host)";
	const explorer = 'the explorer itself';
	return [
		{ what: auth, origin: new URL(config.sandbox.authUrl) },
		{ what: accounts, origin: new URL(config.sandbox.accountsUrl) },
		{ what: explorer, origin: new URL(config.publicOrigin) },
		{ what: auth, origin: new URL(`http://localhost:${config.authPort}`) },
		{ what: accounts, origin: new URL(`http://localhost:${config.accountsPort}`) },
		{ what: explorer, origin: new URL(`http://localhost:${config.port}`) }
	];
}

/**
 * Which of this deployment's own services `url` reaches, given the addresses its host resolves to (none needed for
 * an address or a name of this machine), as a refusal; null when it reaches none. On this machine every name and
 * address of it counts, on the service's port; a service elsewhere is matched by its origin.
 */
export function ownServiceReached(url: URL, addresses: readonly string[], config: ExplorerConfig): string | null {
	const local = namesThisMachine(url.hostname, config.allowedHostNames) || addresses.some(isThisMachineAddress);
	const port = effectivePort(url);
	const hit = ownServices(config).find(
		(service) => service.origin.origin === url.origin || (local && namesThisMachine(service.origin.hostname, config.allowedHostNames) && effectivePort(service.origin) === port)
	);
	return hit ? `${url.origin} is ${hit.what}, ${hit.origin.origin}; give the address where your app starts its sign-in.` : null;
}
