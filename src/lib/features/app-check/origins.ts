/**
 * Which origins the app check may drive a browser to: the same rules as the explorer's custom targets
 * (allowlist.ts, ssrf.ts: the operator's EXPLORER_ALLOWED_HOSTS, private addresses only with
 * EXPLORER_ALLOW_PRIVATE_TARGETS=on, any https host on a public address when bound to loopback), plus one: when
 * the explorer is bound to loopback (one person's own machine), an app on this machine (`localhost`, 127.0.0.0/8,
 * `[::1]`), the usual place an integrator runs the app they are checking. The sandbox's own hosts are the sign-in's,
 * never the app's, and neither is the explorer: under any name or address that reaches them (own-services.ts).
 */
import { isIP } from 'node:net';
import { isLoopbackAddress } from '$lib/sandbox/admin-access';
import type { ExplorerConfig } from '../../platform/config';
import { checkOutboundUrl, type Resolver } from '../../platform/outbound/ssrf';
import { ownServiceReached } from './own-services';

/** `address`: where a host name was checked to resolve (the proxy connects there); none for an IP or localhost. */
export type OriginCheck = { ok: true; address?: string } | { ok: false; message: string };

function isThisMachine(url: URL): boolean {
	const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
	return host === 'localhost' || (isIP(host) !== 0 && isLoopbackAddress(host));
}

/** Whether the app check may load `url` in its browser as the app's (every address it resolves to checked). */
export async function checkAppUrl(url: string, config: ExplorerConfig, resolve?: Resolver): Promise<OriginCheck> {
	if (!URL.canParse(url)) return { ok: false, message: `"${url}" is not a URL.` };
	const parsed = new URL(url);
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, message: `The app must be on http or https, not ${parsed.protocol.slice(0, -1)}.` };
	// Before any lookup (an address, this machine's names, the services' own origins), then on what the name resolves to.
	const own = ownServiceReached(parsed, [], config);
	if (own) return { ok: false, message: own };
	if (config.targetRule === 'public-https' && isThisMachine(parsed)) return { ok: true };
	const check = await checkOutboundUrl(parsed.href, config, resolve);
	if (check.ok) {
		const resolved = ownServiceReached(parsed, check.addresses.map((a) => a.address), config);
		if (resolved) return { ok: false, message: resolved };
		return isIP(parsed.hostname.replace(/^\[(.*)\]$/, '$1')) ? { ok: true } : { ok: true, address: check.address };
	}
	const local = config.targetRule === 'public-https' ? ' An app on this machine (localhost) is allowed as it is.' : '';
	return { ok: false, message: `The app check does not drive ${parsed.origin}: ${check.message}${local}` };
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The origins a sandbox on `origin` answers on: itself, and for a sandbox on this machine the same port under each
 * of the loopback names (an app may link to 127.0.0.1 where the check was told localhost).
 */
export function originAliases(origin: string): string[] {
	const url = new URL(origin);
	if (!LOOPBACK_NAMES.includes(url.hostname)) return [url.origin];
	return LOOPBACK_NAMES.map((name) => `${url.protocol}//${name}${url.port ? `:${url.port}` : ''}`);
}

/**
 * A guard for every connection the check's browser opens (proxy.ts): the sandbox's origins and origins
 * `checkAppUrl` allows pass; each origin is checked once per run (`checked`: origins the caller already checked), so
 * every connection to it goes to the one address checked.
 */
export function originGuard(config: ExplorerConfig, sandboxOrigins: readonly string[], resolve?: Resolver, checked: Record<string, OriginCheck> = {}) {
	const decided = new Map<string, Promise<OriginCheck>>(Object.entries(checked).map(([origin, check]) => [origin, Promise.resolve(check)]));
	return (url: string): Promise<OriginCheck> => {
		if (!URL.canParse(url)) return Promise.resolve({ ok: true });
		const parsed = new URL(url);
		// data:, blob: and the like never leave the browser.
		if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return Promise.resolve({ ok: true });
		if (sandboxOrigins.includes(parsed.origin)) return Promise.resolve({ ok: true });
		let check = decided.get(parsed.origin);
		if (!check) {
			check = checkAppUrl(parsed.origin, config, resolve);
			decided.set(parsed.origin, check);
		}
		return check;
	};
}
