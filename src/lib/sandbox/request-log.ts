/**
 * Records every request to the sandbox's two hosts, with its response, in the store's log (`GET /sandbox/log`),
 * masked before it is stored. The handler is untouched: the body is observed as it streams past.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpHeader, RecordedRequest, RecordedResponse } from '../flow/exchange';
import { maskBody, maskHeader, maskUrl } from './mask';
import type { SandboxStore } from './store';

export type SandboxHost = 'authorisation' | 'accounts';

export interface LoggedExchange {
	host: SandboxHost;
	/** Sandbox clock time when the request arrived. */
	sandboxAt: string;
	durationMs: number;
	request: RecordedRequest;
	/** Null when the client went away before a response was sent. */
	response: RecordedResponse | null;
}

/** Bodies are recorded up to this many bytes. */
const RECORDED_BODY_BYTES = 8 * 1024;

/** Requests not worth a log entry: health checks, static assets and the log reading itself. */
function isUnlogged(method: string | undefined, url: string | undefined): boolean {
	if (method !== 'GET' && method !== 'HEAD') return false;
	const target = url ?? '';
	const query = target.indexOf('?');
	const path = query === -1 ? target : target.slice(0, query);
	return path === '/health' || path === '/sandbox/log' || path === '/sandbox/state' || path.startsWith('/assets/');
}

/** Keeps the first RECORDED_BODY_BYTES of a body as it passes; strings stay strings until the text is asked for. */
class BodyRecorder {
	private chunks: (Buffer | string)[] = [];
	private size = 0;
	truncated = false;

	add(chunk: unknown, encoding?: unknown): void {
		if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
		const room = RECORDED_BODY_BYTES - this.size;
		if (typeof chunk === 'string' && (encoding === undefined || encoding === 'utf8' || encoding === 'utf-8' || typeof encoding === 'function')) {
			const bytes = Buffer.byteLength(chunk);
			if (bytes <= room) {
				this.chunks.push(chunk);
				this.size += bytes;
				return;
			}
		}
		const buffer = Buffer.isBuffer(chunk)
			? chunk
			: chunk instanceof Uint8Array
				? Buffer.from(chunk)
				: Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
		if (buffer.length > room) this.truncated = true;
		if (room > 0) this.chunks.push(buffer.subarray(0, room));
		this.size += Math.min(buffer.length, Math.max(room, 0));
	}

	text(): string {
		if (this.chunks.every((c) => typeof c === 'string')) return this.chunks.join('');
		return Buffer.concat(this.chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))).toString('utf8');
	}
}

function headerPairs(raw: readonly string[]): HttpHeader[] {
	const pairs: HttpHeader[] = [];
	for (let i = 0; i + 1 < raw.length; i += 2) pairs.push({ name: raw[i]!, value: raw[i + 1]! });
	return pairs;
}

type HeaderValue = number | string | readonly string[] | undefined;

function headerList(headers: Record<string, HeaderValue>): HttpHeader[] {
	return Object.entries(headers).flatMap(([name, value]) =>
		value === undefined ? [] : (Array.isArray(value) ? value : [String(value)]).map((v) => ({ name, value: String(v) }))
	);
}

/** Headers given to writeHead are not visible through getHeaders(), so they are recorded as they pass. */
function headersOfWriteHead(args: unknown[]): Record<string, HeaderValue> {
	const headers = args.find((a) => a !== null && typeof a === 'object');
	if (Array.isArray(headers)) {
		const record: Record<string, string> = {};
		for (let i = 0; i + 1 < headers.length; i += 2) record[String(headers[i]).toLowerCase()] = String(headers[i + 1]);
		return record;
	}
	return Object.fromEntries(Object.entries((headers ?? {}) as Record<string, HeaderValue>).map(([k, v]) => [k.toLowerCase(), v]));
}

/**
 * What one exchange leaves behind for the log: plain values, not the request and response objects (so a pending
 * entry holds no socket), turned into a masked `LoggedExchange` only if the log keeps it.
 */
class ExchangeCapture {
	readonly requestBody = new BodyRecorder();
	readonly responseBody = new BodyRecorder();
	writeHeadArgs: unknown[] = [];
	durationMs = 0;
	response: { status: number; statusText: string; headers: Record<string, HeaderValue> } | null = null;
	private readonly method: string;
	private readonly url: string;
	private readonly rawHeaders: string[];
	private readonly contentType: string | undefined;

	constructor(
		private readonly host: SandboxHost,
		private readonly sandboxAtMs: number,
		req: IncomingMessage
	) {
		this.method = req.method ?? '';
		this.url = req.headers.host ? `http://${req.headers.host}${req.url ?? ''}` : (req.url ?? '');
		this.rawHeaders = req.rawHeaders;
		this.contentType = req.headers['content-type'];
	}

	/**
	 * Records the request body as it is emitted and the response as it is written, by wrapping the four methods
	 * on these two objects. Observing 'data' as it is emitted neither switches the stream's mode nor consumes
	 * anything.
	 */
	observe(req: IncomingMessage, res: ServerResponse): void {
		const emit = req.emit;
		const writeHead = res.writeHead as (...args: unknown[]) => ServerResponse;
		const write = res.write as (...args: unknown[]) => boolean;
		const end = res.end as (...args: unknown[]) => ServerResponse;
		req.emit = ((event: string | symbol, ...args: unknown[]) => {
			if (event === 'data') this.requestBody.add(args[0]);
			return emit.call(req, event, ...args);
		}) as typeof req.emit;
		res.writeHead = ((...args: unknown[]) => {
			this.writeHeadArgs = args.slice(1);
			return writeHead.apply(res, args);
		}) as typeof res.writeHead;
		res.write = ((...args: unknown[]) => {
			this.responseBody.add(args[0], args[1]);
			return write.apply(res, args);
		}) as typeof res.write;
		res.end = ((...args: unknown[]) => {
			this.responseBody.add(args[0], args[1]);
			return end.apply(res, args);
		}) as typeof res.end;
	}

	entry(): LoggedExchange {
		const sentHeaderRecord = { ...this.response?.headers, ...headersOfWriteHead(this.writeHeadArgs) };
		const requestBody = this.requestBody.text();
		return {
			host: this.host,
			sandboxAt: new Date(this.sandboxAtMs).toISOString(),
			durationMs: this.durationMs,
			request: {
				method: this.method,
				url: maskUrl(this.url),
				headers: headerPairs(this.rawHeaders).map(maskHeader),
				body: requestBody === '' ? null : maskBody(requestBody, this.contentType)
			},
			response: this.response && {
				status: this.response.status,
				statusText: this.response.statusText,
				headers: headerList(sentHeaderRecord).map(maskHeader),
				body: maskBody(this.responseBody.text(), sentHeaderRecord['content-type']?.toString()),
				truncated: this.responseBody.truncated
			}
		};
	}
}

export function withRequestLog(
	store: SandboxStore,
	host: SandboxHost,
	handler: (req: IncomingMessage, res: ServerResponse) => void
): (req: IncomingMessage, res: ServerResponse) => void {
	return (req, res) => {
		if (isUnlogged(req.method, req.url)) return handler(req, res);
		const started = performance.now();
		const capture = new ExchangeCapture(host, store.now().getTime(), req);

		capture.observe(req, res);
		res.on('close', () => {
			capture.durationMs = Math.round((performance.now() - started) * 100) / 100;
			if (res.headersSent) capture.response = { status: res.statusCode, statusText: res.statusMessage, headers: res.getHeaders() };
			// Built and masked only if the store keeps it: under load most entries are pushed out unwritten.
			store.log({ host, entry: () => capture.entry() });
		});
		handler(req, res);
	};
}
