/**
 * Records every request to the sandbox's two hosts, with its response, in the store's log (`GET /sandbox/log`),
 * masked before it is stored. The handler is untouched: the servers' own request and response classes observe
 * the request body as it streams past and the response as it is written.
 *
 * The token endpoint pays for this on every exchange, so it is kept cheap: the classes record through methods of
 * their prototypes (wrapping the methods of each request and response object gave every one a shape of its own,
 * which slowed Node's HTTP code), no closure is made per request, and an entry is built and masked only if the log
 * keeps it. Together that took the log's cost under load from about a quarter of the token endpoint's CPU time to
 * a few percent.
 *
 * The store keeps the log in its database through `openLogBuffer`: entries wait in memory and are written
 * together, since one transaction per request would dominate the hot path's cost.
 *
 * Each workspace has its own log. Each endpoint first attributes its request (`attribute.ts`: by the client, code
 * or token it names) and the control API by its workspace key; either says so with `useWorkspace`, and the entry
 * goes to that workspace's log. A request no workspace claims (an unknown client, a forged token) goes to the
 * default workspace's log, or nowhere when
 * the server is told not to keep such entries (public mode: the default workspace is everyone's, and its log
 * would show one integrator's mistakes to another).
 */
import { createServer, IncomingMessage, ServerResponse, type OutgoingHttpHeader, type OutgoingHttpHeaders, type Server, type ServerOptions } from 'node:http';
import { randomBytes } from 'node:crypto';
import { correlationValues } from '../../http/correlation';
import { uriParts } from '../../http/encoding';
import type { HttpHeader } from '../../http/exchange';
import { isSignInStepPath } from '../../protocol/endpoints';
import { maskBody, maskHeader, maskUrl } from '../mask';
import type { SandboxStore, SandboxWorkspace } from '../store';
import { correlationKeys } from './correlation';
import type { LoggedExchange, SandboxHost } from '../../http/logged-exchange';
import type { LogEntrySource } from './entry';

/** Tells this process's entries apart from each other and from a previous run's (ids are given only when written). */
const PROCESS_TAG = randomBytes(4).toString('hex');
let captures = 0;

/** Bodies are recorded up to this many bytes. */
const RECORDED_BODY_BYTES = 8 * 1024;

/**
 * Requests not worth a log entry: health checks, static assets and the log reading itself; and the creation and
 * removal of workspaces, whose answers and headers carry workspace keys, which are never logged.
 */
function isUnlogged(method: string | undefined, url: string | undefined): boolean {
	const target = url ?? '';
	const query = target.indexOf('?');
	const path = query === -1 ? target : target.slice(0, query);
	if (path === '/sandbox/workspaces' || path.startsWith('/sandbox/workspaces/')) return true;
	if (method !== 'GET' && method !== 'HEAD') return false;
	return path === '/health' || path === '/sandbox/log' || path === '/sandbox/state' || path === '/sandbox/workspace' || path.startsWith('/assets/');
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

/** A request's headers as sent: node's flat rawHeaders list as name and value pairs. */
export function headerPairs(raw: readonly string[]): HttpHeader[] {
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

/** Headers given to writeHead (an object or a flat array) are not visible through getHeaders(): recorded as they pass. */
function headersOfWriteHead(headers: unknown): Record<string, HeaderValue> {
	if (headers === null || typeof headers !== 'object') return {};
	if (Array.isArray(headers)) {
		const record: Record<string, string> = {};
		for (let i = 0; i + 1 < headers.length; i += 2) record[String(headers[i]).toLowerCase()] = String(headers[i + 1]);
		return record;
	}
	return Object.fromEntries(Object.entries(headers as Record<string, HeaderValue>).map(([k, v]) => [k.toLowerCase(), v]));
}

/**
 * What one exchange leaves behind for the log: plain values, not the request and response objects (so a pending
 * entry holds no socket), turned into a masked `LoggedExchange` only if the log keeps it.
 */
class ExchangeCapture implements LogEntrySource {
	readonly requestBody = new BodyRecorder();
	readonly responseBody = new BodyRecorder();
	/** The headers given to writeHead, which getHeaders() does not show. */
	writeHeadHeaders: unknown = undefined;
	durationMs = 0;
	response: { status: number; statusText: string; headers: Record<string, HeaderValue> } | null = null;
	private readonly method: string;
	private readonly url: string;
	private readonly rawHeaders: string[];
	private readonly contentType: string | undefined;

	private readonly startedMs = performance.now();
	private readonly serial = ++captures;
	/** On the default workspace's clock, until the request's workspace is found. */
	private sandboxAtMs: number;
	/** Built once: the log's writer and a live subscriber may both ask. */
	private built: LoggedExchange | undefined;

	constructor(
		private readonly store: SandboxStore,
		private readonly host: SandboxHost,
		private readonly logUnclaimed: boolean,
		req: IncomingMessage
	) {
		this.sandboxAtMs = store.now().getTime();
		this.method = req.method ?? '';
		this.url = req.headers.host ? `http://${req.headers.host}${req.url ?? ''}` : (req.url ?? '');
		this.rawHeaders = req.rawHeaders;
		this.contentType = req.headers['content-type'];
	}

	/** Called once, when the response closes: sent in full, or cut short by a client that went away. */
	finish(res: LoggedResponse): void {
		this.durationMs = Math.round((performance.now() - this.startedMs) * 100) / 100;
		if (res.headersSent) this.response = { status: res.statusCode, statusText: res.statusMessage, headers: res.getHeaders() };
		const claimed = res.req.workspace;
		if (claimed !== null) this.sandboxAtMs = res.req.sandboxAtMs;
		const log = claimed ?? (this.logUnclaimed ? this.store : null);
		// Built and masked only if the store keeps it: under load most entries are pushed out unwritten.
		log?.log({ host: this.host, entry: this });
	}

	build(): LoggedExchange {
		return (this.built ??= this.assemble());
	}

	private assemble(): LoggedExchange {
		const sentHeaderRecord = { ...this.response?.headers, ...headersOfWriteHead(this.writeHeadHeaders) };
		const requestBody = this.requestBody.text();
		const requestHeaders = headerPairs(this.rawHeaders);
		const responseHeaders = headerList(sentHeaderRecord);
		const responseBody = this.responseBody.text();
		const raw = { url: this.url, headers: requestHeaders, body: requestBody };
		return {
			ref: `${PROCESS_TAG}.${this.serial}`,
			host: this.host,
			sandboxAt: new Date(this.sandboxAtMs).toISOString(),
			durationMs: this.durationMs,
			request: {
				method: this.method,
				url: maskUrl(this.url),
				headers: requestHeaders.map(maskHeader),
				body: requestBody === '' ? null : maskBody(requestBody, this.contentType)
			},
			response: this.response && {
				status: this.response.status,
				statusText: this.response.statusText,
				headers: responseHeaders.map(maskHeader),
				body: maskBody(responseBody, sentHeaderRecord['content-type']?.toString()),
				truncated: this.responseBody.truncated
			},
			// Only a sign-in's own requests tie flows together: the control API's and the pages' calls are not read.
			keys: isSignInStepPath(uriParts(this.url).path) ? correlationKeys(correlationValues(raw, this.response && { headers: responseHeaders, body: responseBody })) : {}
		};
	}
}

/** The request class of a logged server: records the body as it is emitted, without consuming or switching it. */
class LoggedRequest extends IncomingMessage {
	/** Where this request's body is recorded; null when it is not logged. */
	recordBodyIn: BodyRecorder | null = null;
	/** The workspace found for this request (see `useWorkspace`); null until then. */
	workspace: SandboxWorkspace | null = null;
	/** When the workspace was found, on its clock. */
	sandboxAtMs = 0;

	override emit(event: string | symbol, ...args: unknown[]): boolean {
		if (event === 'data' && this.recordBodyIn !== null) this.recordBodyIn.add(args[0]);
		return super.emit(event, ...args);
	}
}

type End = (chunk?: unknown, encoding?: unknown, callback?: unknown) => ServerResponse;
type Write = (chunk: unknown, encoding?: unknown, callback?: unknown) => boolean;

/** The response class of a logged server: records what is written, and hands the capture to the log on close. */
class LoggedResponse extends ServerResponse<LoggedRequest> {
	/** This exchange's capture; null when it is not logged. */
	capture: ExchangeCapture | null = null;

	override writeHead(
		statusCode: number,
		statusMessage?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
		headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]
	): this {
		if (this.capture !== null) this.capture.writeHeadHeaders = typeof statusMessage === 'string' ? headers : statusMessage;
		return super.writeHead(statusCode, statusMessage as string, headers);
	}

	override write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
		this.capture?.responseBody.add(chunk, encoding);
		return (super.write as Write)(chunk, encoding, callback);
	}

	override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
		this.capture?.responseBody.add(chunk, encoding);
		(super.end as End)(chunk, encoding, callback);
		return this;
	}

	override emit(event: string | symbol, ...args: unknown[]): boolean {
		if (event === 'close' && this.capture !== null) {
			this.capture.finish(this);
			this.capture = null;
		}
		return super.emit(event, ...args);
	}
}

/**
 * Says that `req` belongs to `workspace`: the workspace was used now (idle ones expire), and the request's log
 * entry goes to its log, timed on its clock. The first workspace found for a request is the one it keeps.
 */
export function useWorkspace(req: IncomingMessage, workspace: SandboxWorkspace): void {
	workspace.touch();
	if (req instanceof LoggedRequest && req.workspace === null) {
		req.workspace = workspace;
		req.sandboxAtMs = workspace.now().getTime();
	}
}

export interface LoggedServerOptions {
	/** Whether a request no workspace claims is kept in the default workspace's log (true) or not logged (false). */
	logUnclaimed: boolean;
	/** node:http's own options (timeouts that bound slow clients). */
	server?: ServerOptions;
}

/**
 * A server for one of the sandbox's hosts whose every request is logged, except health checks, static assets,
 * reads of the log itself and calls that carry workspace keys in their answers.
 */
export function loggedServer(
	store: SandboxStore,
	host: SandboxHost,
	handler: (req: IncomingMessage, res: ServerResponse) => void,
	options: LoggedServerOptions = { logUnclaimed: true }
): Server {
	return createServer<typeof LoggedRequest, typeof LoggedResponse>({ ...options.server, IncomingMessage: LoggedRequest, ServerResponse: LoggedResponse }, (req, res) => {
		if (!isUnlogged(req.method, req.url)) {
			const capture = new ExchangeCapture(store, host, options.logUnclaimed, req);
			req.recordBodyIn = capture.requestBody;
			res.capture = capture;
		}
		handler(req, res);
	}) as unknown as Server; // callers need only a Server; the classes are this module's business
}

