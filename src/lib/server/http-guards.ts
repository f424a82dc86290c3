/**
 * Guards every listener of the process shares (the explorer and the sandbox's two hosts): requests must address
 * one of the deployment's own names (DNS rebinding), and slow clients are cut off. Plus the explorer's framing
 * headers. Pure node:http, no configuration read here: callers pass what config.ts parsed.
 */
import type { IncomingMessage, RequestListener, ServerOptions, ServerResponse } from 'node:http';
import type { Handle, HandleServerError } from '@sveltejs/kit';
import type { SlowClientLimits } from './config';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The names a request may address: loopback ones on the listener's own port, the listed ones on any port. */
export interface OwnHostNames {
	/** PUBLIC_ORIGIN's host and ALLOWED_HOST_NAMES, normalised hostnames (no port), loopback names aside. */
	anyPort: ReadonlySet<string>;
	/** PUBLIC_ORIGIN's `host[:port]` as browsers send it (its port may differ from the listener's behind a proxy). */
	publicHost: string;
}

export function ownHostNames(publicOrigin: string, allowedHostNames: readonly string[]): OwnHostNames {
	const origin = new URL(publicOrigin);
	return { anyPort: new Set([origin.hostname, ...allowedHostNames].filter((name) => !LOOPBACK_NAMES.has(name))), publicHost: origin.host };
}

/**
 * Why a request's Host header is not one of this listener's names, or null when it is. A page on another name that
 * rebinds to this machine carries its own name in Host, which no own name matches.
 */
export function foreignHost(host: string | undefined, listenerPort: number, names: OwnHostNames): string | null {
	if (!host) return 'The request has no Host header.';
	const url = /[/?#@\\\s]/.test(host) || !URL.canParse(`http://${host}`) ? null : new URL(`http://${host}`);
	if (url) {
		if (names.anyPort.has(url.hostname) || url.host === names.publicHost) return null;
		if (LOOPBACK_NAMES.has(url.hostname) && Number(url.port || 80) === listenerPort) return null;
	}
	return `This server does not answer to the name "${host.slice(0, 100)}". Use localhost:${listenerPort}, or add the name to ALLOWED_HOST_NAMES.`;
}

/** Wraps a listener so a request to a foreign name gets a 421 (Misdirected Request) and reaches nothing else. */
export function refuseForeignHosts(names: OwnHostNames, handler: RequestListener): RequestListener {
	return (req: IncomingMessage, res: ServerResponse) => {
		const problem = foreignHost(req.headers.host, req.socket.localPort ?? 0, names);
		if (problem === null) return handler(req, res);
		req.resume();
		res.writeHead(421, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(problem), Connection: 'close' });
		res.end(problem);
	};
}

/**
 * Server options that bound how long a client may take: its headers, and its whole request with the body. Node
 * checks its connections every `connectionsCheckingInterval`; a check every tenth of the shorter bound (at most
 * each second) cuts a slow client close to the bound instead of up to 30 s (Node's default interval) after it.
 */
export function slowClientOptions(limits: SlowClientLimits): ServerOptions {
	return {
		headersTimeout: limits.headersTimeoutMs,
		requestTimeout: limits.requestTimeoutMs,
		connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(limits.headersTimeoutMs / 10)))
	};
}

/**
 * The explorer's pages may not be framed (clickjacking): `X-Frame-Options` for every response, alongside the
 * Content-Security-Policy `frame-ancestors 'none'` SvelteKit sends with each page (svelte.config.js).
 */
export const refuseFraming: Handle = async ({ event, resolve }) => {
	const response = await resolve(event);
	if (!response.headers.has('x-frame-options')) response.headers.set('X-Frame-Options', 'DENY');
	return response;
};

/**
 * SvelteKit's error hook: a malformed request (a path that is not valid percent-encoding, an unknown route) is the
 * client's mistake, answered with its 4xx and not logged, so a flood of them cannot fill the log with stack
 * traces. A 5xx is a fault of ours: its cause goes to the log, one entry per failure.
 */
export const logServerFaultsOnly: HandleServerError = ({ error, status, event }) => {
	if (status < 500) return;
	console.error(`${event.request.method} ${event.url.pathname} failed:`, error);
};
