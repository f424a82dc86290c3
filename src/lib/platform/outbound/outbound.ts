/**
 * Sends one request to the target and records it exactly. node:http(s) rather than fetch, because the explorer must
 * control every header: a request without `User-Agent` (or without `Host`) must really go without it. Redirects are
 * never followed (a 3xx is recorded as it came), the whole exchange has one deadline, the body is capped, and every
 * failure is returned as data in the exchange: `send` never throws.
 *
 * Connections are kept alive and reused, but only for the same host, port and the same list of addresses the SSRF
 * guard checked for this request (`POOL_KEY`): a pooled connection always leads to an address that was just
 * allowed. A connection that ended in any failure (timeout, cut body, oversized body) is destroyed, never pooled.
 */
import http from 'node:http';
import https from 'node:https';
import { randomUUID } from 'node:crypto';
import type { RecordedExchange, StepId } from '$lib/flow/exchange';
import type { HttpHeader, RecordedResponse, TransportFailure } from '$lib/http/exchange';
import type { ExplorerConfig } from '../config';
import type { LookupAddress } from 'node:dns';
import { checkOutboundUrl, pinnedLookup, type Resolver } from './ssrf';
import { misdirectedSecret, type HeldSecret } from './held-secret';
import { hasHeader } from '$lib/http/headers';
import { isUtf8Text } from '$lib/http/encoding';

export interface OutboundRequest {
	method: 'GET' | 'POST' | 'DELETE';
	url: string;
	/** Sent as given, in this order; `send` adds only Host, Content-Length and Connection. */
	headers: HttpHeader[];
	body: string | null;
	/** Send no Host header (to show the 7.3 400 row); HTTP/1.1 requires one. */
	omitHost?: boolean;
}

export interface SendOptions {
	config: ExplorerConfig;
	step: StepId;
	label: string;
	/** Total time for DNS, connect, headers and body; defaults to the config's OUTBOUND_TIMEOUT_MS. */
	timeoutMs?: number;
	/** Response bodies past this many bytes are cut (truncated: true). */
	maxBodyBytes?: number;
	/** For tests: answer DNS questions without the system resolver. */
	resolve?: Resolver;
	/** For tests: the connection pool, in place of the explorer's own (which pools by checked address). */
	agent?: http.Agent;
	/** The client secrets the caller holds: a request carrying one to any origin but its own is refused, unsent. */
	holds?: readonly HeldSecret[];
}

export const MAX_BODY_BYTES = 256 * 1024;

/** Idle pooled connections are closed after this long, or sooner when the target's `Keep-Alive: timeout` says so. */
const IDLE_CONNECTION_MS = 4000;

/** The request option that names the checked addresses; part of every pooled connection's key. */
const POOL_KEY = 'pinnedAddresses';

/**
 * A keep-alive agent whose connections are pooled by host, port (and TLS options) as Node does, plus the addresses
 * the guard allowed: a request never reuses a connection opened to an address its own check did not return.
 */
function pinnedAgent<T extends http.Agent>(agent: T): T {
	const named = agent as unknown as { getName(options: Record<string, unknown>): string };
	const nodeName = named.getName.bind(agent);
	named.getName = (options) => `${nodeName(options)}|${String(options[POOL_KEY])}`;
	return agent;
}

const AGENT_OPTIONS = { keepAlive: true, timeout: IDLE_CONNECTION_MS, maxFreeSockets: 16 };
const agents = { 'http:': pinnedAgent(new http.Agent(AGENT_OPTIONS)), 'https:': pinnedAgent(new https.Agent(AGENT_OPTIONS)) };

/** The key part for a checked list of addresses (order kept: it is the order connections try them). */
function poolKey(addresses: readonly { address: string; family: number }[]): string {
	return addresses.map((a) => `${a.address}/${a.family}`).join(',');
}

/** The headers as they go on the wire: Host first, the caller's, then the body's length and `Connection: keep-alive`. */
export function wireHeaders(request: OutboundRequest, url: URL): HttpHeader[] {
	const headers: HttpHeader[] = [];
	if (!request.omitHost && !hasHeader(request.headers, 'host')) headers.push({ name: 'Host', value: url.host });
	headers.push(...request.headers);
	const bodyBytes = request.body === null ? 0 : Buffer.byteLength(request.body);
	if ((request.body !== null || request.method === 'POST') && !hasHeader(request.headers, 'content-length')) {
		headers.push({ name: 'Content-Length', value: String(bodyBytes) });
	}
	// Stated explicitly so Node adds nothing of its own (it would add the same for a keep-alive agent).
	if (!hasHeader(request.headers, 'connection')) headers.push({ name: 'Connection', value: 'keep-alive' });
	return headers;
}

function formatBytes(bytes: number): string {
	return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}

export async function send(request: OutboundRequest, options: SendOptions): Promise<RecordedExchange> {
	const started = Date.now();
	const timeoutMs = options.timeoutMs ?? options.config.outboundTimeoutMs;
	const parsed = URL.canParse(request.url) ? new URL(request.url) : null;
	const headers = parsed ? wireHeaders(request, parsed) : request.headers;
	const record = (response: RecordedResponse | null, failure: TransportFailure | null): RecordedExchange => ({
		id: randomUUID(),
		step: options.step,
		label: options.label,
		startedAt: new Date(started).toISOString(),
		durationMs: Date.now() - started,
		request: { method: request.method, url: parsed?.href ?? request.url, headers, body: request.body },
		response,
		failure,
		masked: []
	});

	const timeout: TransportFailure = {
		kind: 'timeout',
		timeoutMs,
		message: `No complete answer within ${timeoutMs / 1000} s (DNS, connection, headers and body together); the request was abandoned.`
	};
	const misdirected = misdirectedSecret(request, options.holds ?? []);
	if (misdirected !== null) return record(null, { kind: 'refused', message: misdirected });
	const check = await withDeadline(checkOutboundUrl(request.url, options.config, options.resolve), timeoutMs);
	if (check === 'timeout') return record(null, timeout);
	if (!check.ok) return record(null, { kind: check.kind, message: check.message });

	const attempt = () =>
		transmit(parsed!, request, headers, {
			lookup: pinnedLookup(check.addresses),
			addresses: check.addresses,
			timeoutMs: Math.max(1, timeoutMs - (Date.now() - started)),
			maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
			agent: options.agent ?? agents[parsed!.protocol === 'https:' ? 'https:' : 'http:']
		});
	let outcome = await attempt();
	// A pooled connection the target closed while it lay idle fails before any answer. A GET is sent once more, on
	// whichever connection the pool gives next (a new one when none is left); a POST never is: it may have arrived.
	for (let retries = 0; outcome.retriable && retries < 2; retries++) outcome = await attempt();
	return record(outcome.response, outcome.failure === 'timeout' ? timeout : outcome.failure);
}

async function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
	let timer: NodeJS.Timeout | undefined;
	const deadline = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
	try {
		return await Promise.race([promise, deadline]);
	} finally {
		clearTimeout(timer);
	}
}

interface Outcome {
	response: RecordedResponse | null;
	failure: TransportFailure | 'timeout' | null;
	/** A reused connection failed before any answer, and the request is one that may be sent again. */
	retriable: boolean;
}

/** One request on one connection; resolves once with what came back, however it ended. */
function transmit(
	url: URL,
	request: OutboundRequest,
	headers: HttpHeader[],
	limits: { lookup: ReturnType<typeof pinnedLookup>; addresses: LookupAddress[]; timeoutMs: number; maxBodyBytes: number; agent: http.Agent }
): Promise<Outcome> {
	return new Promise((resolve) => {
		let settled = false;
		const chunks: Buffer[] = [];
		let received = 0;
		let head: { status: number; statusText: string; headers: HttpHeader[]; declaredLength: number | null } | null = null;

		const response = (truncated: boolean): RecordedResponse | null => {
			if (!head) return null;
			const bytes = Buffer.concat(chunks);
			return {
				status: head.status,
				statusText: head.statusText,
				headers: head.headers,
				body: bytes.toString('utf8'),
				truncated,
				...(isUtf8Text(bytes, truncated) ? {} : { notUtf8: true as const })
			};
		};
		const finish = (truncated: boolean, failure: TransportFailure | 'timeout' | null, retriable = false) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			// A complete exchange leaves its connection to the pool; any other end closes it.
			if (failure !== null || truncated) req.destroy();
			resolve({ response: response(truncated), failure, retriable });
		};

		const transport = url.protocol === 'https:' ? https : http;
		let req: http.ClientRequest;
		try {
			req = transport.request({
				method: request.method,
				host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
				port: url.port || undefined,
				path: `${url.pathname}${url.search}`,
				headers: headers.map((h) => [h.name, h.value]).flat(),
				setHost: false,
				agent: limits.agent,
				[POOL_KEY]: poolKey(limits.addresses),
				// Node 20 tries every address this returns (autoSelectFamily is on by default).
				lookup: limits.lookup
			} as http.RequestOptions);
		} catch (error) {
			// Node refuses invalid header names or values before anything is sent.
			resolve({ response: null, failure: { kind: 'refused', message: `Not sent: ${(error as Error).message}` }, retriable: false });
			return;
		}
		const timer = setTimeout(() => finish(false, 'timeout'), limits.timeoutMs);

		req.on('response', (res) => {
			const rawLength = res.headers['content-length'];
			head = {
				status: res.statusCode ?? 0,
				statusText: res.statusMessage ?? '',
				headers: pairs(res.rawHeaders),
				declaredLength: rawLength === undefined ? null : Number(rawLength)
			};
			res.on('data', (chunk: Buffer) => {
				const room = limits.maxBodyBytes - received;
				chunks.push(chunk.subarray(0, Math.max(0, room)));
				received += chunk.length;
				if (received > limits.maxBodyBytes) {
					finish(true, {
						kind: 'too-large',
						message: `The response body passed ${formatBytes(limits.maxBodyBytes)}; the first ${formatBytes(limits.maxBodyBytes)} are shown and the connection was closed.`
					});
				}
			});
			res.on('end', () => finish(false, null));
			// 'close' (or 'error') without 'end': the peer closed before the body was complete.
			const cut = () => {
				const expected = head?.declaredLength ?? null;
				finish(false, {
					kind: 'unreachable',
					message: `The connection closed after ${formatBytes(received)} of the body${expected === null ? '' : ` (Content-Length said ${formatBytes(expected)})`}, before it was complete.`
				});
			};
			res.on('error', cut);
			res.on('close', cut);
		});
		req.on('socket', (socket) => {
			// The pool's key already guarantees it; checked again because a wrong address here would be a way round the guard.
			if (req.reusedSocket && !limits.addresses.some((a) => a.address === socket.remoteAddress)) {
				finish(false, { kind: 'refused', message: `Not sent: a pooled connection led to ${socket.remoteAddress}, which this request's check did not allow.` });
			}
		});
		req.on('error', (error: NodeJS.ErrnoException) => {
			const message = describeError(error, url);
			if (!req.reusedSocket || head !== null) return finish(false, { kind: 'unreachable', message });
			if (request.method === 'GET') return finish(false, { kind: 'unreachable', message }, true);
			finish(false, {
				kind: 'unreachable',
				message: `${message} The connection was one kept open from an earlier request, and the target had dropped it: the ${request.method} may or may not have reached it, so it was not sent again. Send it again yourself if that is safe (a grant code may already be used).`
			});
		});
		req.end(request.body ?? undefined);
	});
}

function pairs(raw: string[]): HttpHeader[] {
	const headers: HttpHeader[] = [];
	for (let i = 0; i + 1 < raw.length; i += 2) headers.push({ name: raw[i]!, value: raw[i + 1]! });
	return headers;
}

function describeError(error: NodeJS.ErrnoException, url: URL): string {
	switch (error.code) {
		case 'ECONNREFUSED':
			return `${url.host} refused the connection: nothing is listening there. Is the target running, and is the port right?`;
		case 'ECONNRESET':
		case 'EPIPE':
			return `${url.host} closed the connection without a complete answer.`;
		case 'EHOSTUNREACH':
		case 'ENETUNREACH':
			return `${url.host} cannot be reached from the explorer's server (${error.code}).`;
		default:
			return `The request to ${url.host} failed: ${error.message}${error.code ? ` (${error.code})` : ''}.`;
	}
}
