/**
 * Which hosts the explorer may call at all: the sandbox's two origins (exactly), and the hosts the operator listed
 * in EXPLORER_ALLOWED_HOSTS. Used both when a target is chosen and before every outbound request.
 */
import type { ExplorerConfig, HostRule } from './config';

export type Permission = 'sandbox' | 'allowlist' | null;

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

export function effectivePort(url: URL): number {
	return url.port === '' ? (DEFAULT_PORTS[url.protocol] ?? 0) : Number(url.port);
}

function matchesRule(url: URL, rule: HostRule): boolean {
	const hostMatches = rule.subdomains ? url.hostname.endsWith(`.${rule.host}`) : url.hostname === rule.host;
	return hostMatches && (rule.port === null || rule.port === effectivePort(url));
}

/** Why `url` may be called: it is one of the sandbox's origins, or its host is on the operator's list; else null. */
export function permissionFor(url: URL, config: ExplorerConfig): Permission {
	if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
	if (url.origin === new URL(config.sandbox.authUrl).origin || url.origin === new URL(config.sandbox.accountsUrl).origin) {
		return 'sandbox';
	}
	return config.allowedHosts.some((rule) => matchesRule(url, rule)) ? 'allowlist' : null;
}

/** The sentence every refusal of a host ends with, so the operator knows which knob to turn. */
export function notAllowedMessage(url: URL, config: ExplorerConfig): string {
	const listed = config.allowedHosts.length === 0 ? 'none are listed' : `listed: ${config.allowedHosts.map(describeRule).join(', ')}`;
	return (
		`${url.host} is not an allowed target. The explorer only calls the sandbox (${config.sandbox.authUrl}, ` +
		`${config.sandbox.accountsUrl}) and the hosts the operator lists in EXPLORER_ALLOWED_HOSTS (${listed}).`
	);
}

function describeRule(rule: HostRule): string {
	return `${rule.subdomains ? '*.' : ''}${rule.host}${rule.port === null ? '' : `:${rule.port}`}`;
}
