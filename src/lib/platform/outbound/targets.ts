/**
 * The target of a walk: the built-in sandbox, or a custom deployment the operator allows. Decided before any
 * request is sent; the SSRF guard (ssrf.ts) checks every request again, since a URL can resolve elsewhere later.
 */
import type { ExplorerConfig } from '../config';
import { notAllowedMessage, permissionFor } from './allowlist';

export type TargetInput = { kind: 'sandbox' } | { kind: 'custom'; authUrl: string; accountsUrl: string };

export interface Target {
	kind: 'sandbox' | 'custom';
	/** Base address, without a trailing slash. */
	authUrl: string;
	accountsUrl: string;
}

export type TargetResult = { ok: true; target: Target } | { ok: false; message: string };

type BaseUrlResult = { ok: true; url: string } | { ok: false; message: string };

/** A base address: http(s), no credentials, no query or fragment, on an allowed host. */
function checkBaseUrl(label: string, raw: string, config: ExplorerConfig): BaseUrlResult {
	const text = raw.trim();
	if (!URL.canParse(text)) return { ok: false, message: `${label} "${raw}" is not a URL; write it like https://accounts.example.com` };
	const url = new URL(text);
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return { ok: false, message: `${label} must use http or https, not ${url.protocol.slice(0, -1)}` };
	}
	if (url.username || url.password) {
		return { ok: false, message: `${label} must not carry a user name or password; give the client's credentials in their own fields` };
	}
	if (url.search || url.hash) return { ok: false, message: `${label} must be a base address without ? or #` };
	if (!permissionFor(url, config)) return { ok: false, message: `${label}: ${notAllowedMessage(url, config)}` };
	return { ok: true, url: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}

export function resolveTarget(input: TargetInput, config: ExplorerConfig): TargetResult {
	if (input.kind === 'sandbox') return { ok: true, target: { kind: 'sandbox', ...config.sandbox } };
	const auth = checkBaseUrl('auth_url', input.authUrl, config);
	if (!auth.ok) return auth;
	const accounts = checkBaseUrl('accounts_url', input.accountsUrl, config);
	if (!accounts.ok) return accounts;
	return { ok: true, target: { kind: 'custom', authUrl: auth.url, accountsUrl: accounts.url } };
}
