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
	const path = (url ?? '').split('?')[0]!;
	return path === '/health' || path === '/sandbox/log' || path === '/sandbox/state' || path.startsWith('/assets/');
}

class BodyRecorder {
	private chunks: Buffer[] = [];
	private size = 0;
	truncated = false;

	add(chunk: unknown, encoding?: unknown): void {
		if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
		const buffer = Buffer.isBuffer(chunk)
			? chunk
			: chunk instanceof Uint8Array
				? Buffer.from(chunk)
				: Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
		const room = RECORDED_BODY_BYTES - this.size;
		if (buffer.length > room) this.truncated = true;
		if (room > 0) this.chunks.push(buffer.subarray(0, room));
		this.size += Math.min(buffer.length, Math.max(room, 0));
	}

	text(): string {
		return Buffer.concat(this.chunks).toString('utf8');
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

export function withRequestLog(
	store: SandboxStore,
	host: SandboxHost,
	handler: (req: IncomingMessage, res: ServerResponse) => void
): (req: IncomingMessage, res: ServerResponse) => void {
	return (req, res) => {
		if (isUnlogged(req.method, req.url)) return handler(req, res);
		const started = performance.now();
		const sandboxAt = store.now().toISOString();
		const requestBody = new BodyRecorder();
		const responseBody = new BodyRecorder();

		// Observing 'data' as it is emitted neither switches the stream's mode nor consumes anything.
		const emit = req.emit.bind(req);
		req.emit = ((event: string | symbol, ...args: unknown[]) => {
			if (event === 'data') requestBody.add(args[0]);
			return emit(event, ...args);
		}) as typeof req.emit;
		let writeHeadHeaders: Record<string, HeaderValue> = {};
		const writeHead = res.writeHead.bind(res);
		res.writeHead = ((statusCode: number, ...rest: unknown[]) => {
			writeHeadHeaders = headersOfWriteHead(rest);
			return (writeHead as (...a: unknown[]) => ServerResponse)(statusCode, ...rest);
		}) as typeof res.writeHead;
		const write = res.write.bind(res);
		const end = res.end.bind(res);
		res.write = ((chunk: unknown, ...rest: unknown[]) => {
			responseBody.add(chunk, rest[0]);
			return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
		}) as typeof res.write;
		res.end = ((chunk?: unknown, ...rest: unknown[]) => {
			responseBody.add(chunk, rest[0]);
			return (end as (...a: unknown[]) => ServerResponse)(chunk, ...rest);
		}) as typeof res.end;

		res.on('close', () => {
			const requestHeaders = headerPairs(req.rawHeaders);
			const sentHeaderRecord = { ...(res.getHeaders() as Record<string, HeaderValue>), ...writeHeadHeaders };
			const sentHeaders = headerList(sentHeaderRecord);
			const entry: LoggedExchange = {
				host,
				sandboxAt,
				durationMs: Math.round((performance.now() - started) * 100) / 100,
				request: {
					method: req.method ?? '',
					url: maskUrl(req.headers.host ? `http://${req.headers.host}${req.url ?? ''}` : (req.url ?? '')),
					headers: requestHeaders.map(maskHeader),
					body: requestBody.text() === '' ? null : maskBody(requestBody.text(), req.headers['content-type'])
				},
				response: res.headersSent
					? {
							status: res.statusCode,
							statusText: res.statusMessage,
							headers: sentHeaders.map(maskHeader),
							body: maskBody(responseBody.text(), sentHeaderRecord['content-type']?.toString()),
							truncated: responseBody.truncated
						}
					: null
			};
			store.log({ host, entry });
		});
		handler(req, res);
	};
}
