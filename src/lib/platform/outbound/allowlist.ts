/**
 * Which hosts the explorer may call at all: the sandbox's two origins (exactly), the hosts the operator listed
 * in EXPLORER_ALLOWED_HOSTS, and, when the explorer is bound to loopback (one person's own machine), any https
 * host, which the SSRF guard then allows on public addresses only. Used both when a target is chosen and before
 * every outbound request.
 */
import type { ExplorerConfig, HostRule } from '../config';

export type Permission = 'sandbox' | 'allowlist' | 'public-https' | null;

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
	if (config.allowedHosts.some((rule) => matchesRule(url, rule))) return 'allowlist';
	return config.targetRule === 'public-https' && url.protocol === 'https:' ? 'public-https' : null;
}

/** The rule for custom targets in a sentence, for the target form (before anything is sent) and refusals. */
export function targetRuleText(config: ExplorerConfig): string {
	const listed = config.allowedHosts.length === 0 ? '' : ` and the hosts the operator lists (${config.allowedHosts.map(describeRule).join(', ')})`;
	return config.targetRule === 'public-https'
		? `This explorer runs on this machine only (bound to loopback), so any https deployment on a public address is allowed${listed}; private, loopback and other internal addresses stay refused.`
		: `This explorer is shared (bound to ${config.host}), so it calls only the sandbox${listed || ' (no other host is listed: the operator sets EXPLORER_ALLOWED_HOSTS)'}.`;
}

/** The sentence every refusal of a host ends with, so the operator knows which knob to turn. */
export function notAllowedMessage(url: URL, config: ExplorerConfig): string {
	const listed = config.allowedHosts.length === 0 ? 'none are listed' : `listed: ${config.allowedHosts.map(describeRule).join(', ')}`;
	const open = config.targetRule === 'public-https' ? ', and, because it runs on this machine only, any https host on a public address' : '';
	return (
		`${url.host} is not an allowed target. The explorer only calls the sandbox (${config.sandbox.authUrl}, ` +
		`${config.sandbox.accountsUrl}), the hosts the operator lists in EXPLORER_ALLOWED_HOSTS (${listed})${open}.`
	);
}

function describeRule(rule: HostRule): string {
	return `${rule.subdomains ? '*.' : ''}${rule.host}${rule.port === null ? '' : `:${rule.port}`}`;
}
