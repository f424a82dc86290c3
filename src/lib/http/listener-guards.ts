/**
 * Guards every listener of the process shares (the explorer and the sandbox's two hosts): requests must address
 * one of the deployment's own names (DNS rebinding), slow clients are cut off, and no body is sniffed. Pure node:http, no configuration
 * read here: callers pass what the explorer's config.ts parsed. Neutral, so the sandbox may use it too.
 */
import { STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** How long a client may take to send its headers, and its whole request with the body. */
export interface SlowClientLimits {
	headersTimeoutMs: number;
	requestTimeoutMs: number;
}

/** The bounds when HEADERS_TIMEOUT_MS and REQUEST_TIMEOUT_MS are not set. */
export const DEFAULT_SLOW_CLIENT_LIMITS: SlowClientLimits = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 };

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

/** Browsers take a body for the type it is sent as, never guessing HTML or script from its bytes. */
const NO_SNIFFING = { 'X-Content-Type-Options': 'nosniff' } as const;

/**
 * Wraps a listener so every response it writes says `nosniff`, static files and error pages included. Set before
 * the handler runs: headers the handler writes are merged with it.
 */
export function refuseSniffing(handler: RequestListener): RequestListener {
	return (req: IncomingMessage, res: ServerResponse) => {
		for (const [name, value] of Object.entries(NO_SNIFFING)) res.setHeader(name, value);
		return handler(req, res);
	};
}

/** Wraps a listener so a request to a foreign name gets a 421 (Misdirected Request) and reaches nothing else. */
export function refuseForeignHosts(names: OwnHostNames, handler: RequestListener): RequestListener {
	// The last Host found own, on its port: nearly every request repeats it, and parsing it as a URL each time cost
	// the sandbox's busiest path a few percent. Only an own name is remembered, so no foreign one can pass.
	let ownHost: string | undefined;
	let ownPort = -1;
	return (req: IncomingMessage, res: ServerResponse) => {
		const host = req.headers.host;
		const port = req.socket.localPort ?? 0;
		if (host === ownHost && port === ownPort && host !== undefined) return handler(req, res);
		const problem = foreignHost(host, port, names);
		if (problem === null) {
			ownHost = host;
			ownPort = port;
			return handler(req, res);
		}
		req.resume();
		res.writeHead(421, { 'Content-Type': 'text/plain; charset=utf-8', ...NO_SNIFFING, 'Content-Length': Buffer.byteLength(problem), Connection: 'close' });
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

/** Node's limit on a request's target and headers together (`--max-http-header-size`, 16 KB unless changed). */
const HEADER_BYTES = 16 * 1024;

/** The status and one-line reason for a request Node could not read, by its parser's error code (Node's statuses). */
function clientErrorAnswer(code: string | undefined, limits: SlowClientLimits): { status: number; reason: string } {
	switch (code) {
		case 'HPE_HEADER_OVERFLOW':
			return { status: 431, reason: `The request's URL and headers are larger than this server reads (${HEADER_BYTES / 1024} KB together): shorten the URL or send fewer or smaller headers.` };
		case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
			return { status: 413, reason: 'The chunk extensions of the request body are larger than this server reads: send the body without chunk extensions.' };
		case 'ERR_HTTP_REQUEST_TIMEOUT':
			return {
				status: 408,
				reason: `The request did not arrive whole in time (headers within ${limits.headersTimeoutMs / 1000} s, the whole request within ${limits.requestTimeoutMs / 1000} s), so it was cut off. A large upload on a slow link needs longer: the server's operator can raise REQUEST_TIMEOUT_MS.`
			};
		case 'HPE_INVALID_METHOD':
			return { status: 400, reason: 'The request method is not one HTTP defines: send GET, POST or another standard method.' };
		default:
			return { status: 400, reason: `The request is not well-formed HTTP/1.1 (${code ?? 'unreadable'}): send a standard request.` };
	}
}

/**
 * Node answers a request it cannot read (a URL or headers too large, an unknown method, a client too slow) with a
 * bare status line and no body, which reads as an unexplained failure. Each listener answers with the reason
 * instead, as plain text, then closes the connection (its framing can no longer be trusted). As Node's own answer,
 * it is written only when no response on the connection has begun: otherwise it would land inside that response.
 */
export function explainClientErrors(server: Server, limits: SlowClientLimits): void {
	server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex & { _httpMessage?: { headersSent: boolean } | null }) => {
		if (error.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) return void socket.destroy();
		const { status, reason } = clientErrorAnswer(error.code, limits);
		const body = `${reason}\n`;
		socket.end(
			`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`
		);
	});
}
