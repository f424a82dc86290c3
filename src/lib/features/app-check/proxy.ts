/**
 * The app check's browser reaches the network only through this proxy (a browser context's `proxy`, loopback
 * included), so every connection it opens is checked: the pages a redirect leads to (the browser follows those
 * itself, where a request hook never sees them), service workers' and WebSockets' connections, every host name, not
 * only the start URL's. Plain http requests are forwarded; https and WebSockets arrive as CONNECT tunnels, checked by
 * host and port. Each connection goes to the address the guard checked (no second DNS answer can move it); a refused
 * one gets a 403 and is reported, so no byte of the refused host ever reaches the browser or the check's outputs.
 */
import { createServer, request, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { effectivePort } from '../../platform/outbound/allowlist';
import type { OriginCheck } from './origins';

/** Whether the browser may connect to `origin`; `address`: where to connect for a host name the guard resolved. */
export type ConnectionGuard = (origin: string) => Promise<OriginCheck>;

export interface GuardingProxy {
	/** `http://127.0.0.1:<port>`: the browser context's proxy server. */
	readonly url: string;
	close(): Promise<void>;
}

/** Headers meant for the proxy itself, never forwarded. */
const PROXY_HEADERS = ['proxy-connection', 'proxy-authorization'];

/** Where to connect: the address the guard checked, else the URL's own host (an IP, or this machine's name). */
function connectHost(url: URL, check: OriginCheck): string {
	return check.ok && check.address ? check.address : url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** The origin a CONNECT tunnel reaches: https, except on port 80 (a ws:// WebSocket). */
function tunnelUrl(authority: string): URL | null {
	if (!URL.canParse(`https://${authority}`)) return null;
	const url = new URL(`https://${authority}`);
	return url.port === '80' ? new URL(`http://${url.hostname}`) : url;
}

/** Why a host could not be reached, in words, from the connection's error code. */
export function unreachableWhy(error: NodeJS.ErrnoException): string {
	const words: Record<string, string> = {
		ECONNREFUSED: 'connection refused: nothing listens on that port',
		ENOTFOUND: 'its name does not resolve',
		EAI_AGAIN: 'its name could not be resolved',
		ETIMEDOUT: 'the connection timed out',
		ECONNRESET: 'the connection was reset',
		EHOSTUNREACH: 'no route to the host'
	};
	return (error.code && words[error.code]) ?? error.code ?? error.message;
}

/**
 * `onRefused`: an origin the guard refused. `onUnreachable`: an origin the guard allowed that could not be connected
 * to (the app not started), with why.
 */
export async function startGuardingProxy(
	guard: ConnectionGuard,
	onRefused: (origin: string, message: string) => void,
	onUnreachable: (origin: string, why: string) => void = () => {}
): Promise<GuardingProxy> {
	const sockets = new Set<Duplex>();
	const server = createServer(async (req, res) => {
		const url = URL.canParse(req.url ?? '') ? new URL(req.url!) : null;
		if (!url || url.protocol !== 'http:') {
			res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('The app check\'s proxy forwards absolute http URLs only.');
			return;
		}
		const check = await guard(url.origin);
		if (!check.ok) {
			onRefused(url.origin, check.message);
			res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end(`The app check does not load ${url.origin}.`);
			return;
		}
		const headers: OutgoingHttpHeaders = { ...req.headers };
		for (const name of PROXY_HEADERS) delete headers[name];
		const upstream = request({ host: connectHost(url, check), port: effectivePort(url), method: req.method, path: `${url.pathname}${url.search}`, headers, agent: false });
		upstream.on('response', (answer: IncomingMessage) => {
			res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
			answer.pipe(res);
		});
		upstream.on('error', (error: NodeJS.ErrnoException) => {
			if (res.headersSent) return void res.destroy();
			const why = unreachableWhy(error);
			onUnreachable(url.origin, why);
			res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' }).end(`${url.origin} could not be reached (${why}).`);
		});
		req.pipe(upstream);
	});
	server.on('connect', async (req: IncomingMessage, client: Duplex, head: Buffer) => {
		sockets.add(client);
		client.on('error', () => {});
		client.on('close', () => sockets.delete(client));
		const url = tunnelUrl(req.url ?? '');
		const check: OriginCheck = url ? await guard(url.origin) : { ok: false, message: 'not a host and port' };
		if (!url || !check.ok) {
			if (url && !check.ok) onRefused(url.origin, check.message);
			client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
			return;
		}
		const upstream: Socket = connect(effectivePort(url), connectHost(url, check));
		sockets.add(upstream);
		upstream.on('close', () => sockets.delete(upstream));
		let tunnelled = false;
		upstream.on('connect', () => {
			tunnelled = true;
			client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			if (head.length > 0) upstream.write(head);
			upstream.pipe(client);
			client.pipe(upstream);
		});
		upstream.on('error', () => {
			if (!tunnelled) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
			else client.destroy();
		});
		client.on('close', () => upstream.destroy());
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}
