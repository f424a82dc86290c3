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

/**
 * Keeps the first RECORDED_BODY_BYTES of a body as it passes; strings stay strings until the text is asked for.
 * Most bodies are one chunk, held in a field: no array per recorder (see `PendingEntry` in buffer.ts for why).
 */
class BodyRecorder {
	private first: Buffer | string | undefined = undefined;
	private rest: (Buffer | string)[] | null = null;
	private size = 0;
	truncated = false;

	add(chunk: unknown, encoding?: unknown): void {
		if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
		const room = RECORDED_BODY_BYTES - this.size;
		if (typeof chunk === 'string' && (encoding === undefined || encoding === 'utf8' || encoding === 'utf-8' || typeof encoding === 'function')) {
			const bytes = Buffer.byteLength(chunk);
			if (bytes <= room) {
				this.keep(chunk);
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
		if (room > 0) this.keep(buffer.subarray(0, room));
		this.size += Math.min(buffer.length, Math.max(room, 0));
	}

	private keep(chunk: Buffer | string): void {
		if (this.first === undefined) this.first = chunk;
		else (this.rest ??= []).push(chunk);
	}

	text(): string {
		if (this.first === undefined) return '';
		const chunks = [this.first, ...(this.rest ?? [])];
		if (chunks.every((c) => typeof c === 'string')) return chunks.join('');
		return Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))).toString('utf8');
	}
}

/** A request's headers as sent: node's flat rawHeaders list as name and value pairs. */
export function headerPairs(raw: readonly string[]): HttpHeader[] {
	const pairs: HttpHeader[] = [];
	for (let i = 0; i + 1 < raw.length; i += 2) pairs.push({ name: raw[i]!, value: raw[i + 1]! });
	return pairs;
}

type HeaderValue = number | string | readonly string[] | undefined;
/** Response headers by lower-case name: a Map, so an entry waiting in the log holds no object literal. */
type HeaderMap = Map<string, HeaderValue>;

function headerList(headers: HeaderMap): HttpHeader[] {
	return [...headers].flatMap(([name, value]) =>
		value === undefined ? [] : (Array.isArray(value) ? value : [String(value)]).map((v) => ({ name, value: String(v) }))
	);
}

/** Headers given to writeHead (an object or a flat array) are not visible through getHeaders(): recorded as they pass. */
function headersOfWriteHead(headers: unknown): HeaderMap | null {
	if (headers === null || typeof headers !== 'object') return null;
	const map: HeaderMap = new Map();
	if (Array.isArray(headers)) {
		for (let i = 0; i + 1 < headers.length; i += 2) map.set(String(headers[i]).toLowerCase(), String(headers[i + 1]));
	} else {
		for (const name in headers) map.set(name.toLowerCase(), (headers as Record<string, HeaderValue>)[name]);
	}
	return map;
}

/** What was sent: a class, not an object literal, for the reason `PendingEntry` in buffer.ts gives. */
class SentResponse {
	constructor(
		readonly status: number,
		readonly statusText: string,
		/** The headers set with setHeader, merged with those given to writeHead, which getHeaders() does not show. */
		readonly headers: HeaderMap
	) {}
}

/** The response's headers: those set with setHeader (usually none: the hosts pass theirs to writeHead), then writeHead's. */
function sentHeaders(res: ServerResponse, writeHeadHeaders: HeaderMap | null): HeaderMap {
	const set = res.getHeaderNames();
	if (set.length === 0) return writeHeadHeaders ?? new Map();
	const merged: HeaderMap = new Map();
	for (const name of set) merged.set(name, res.getHeader(name));
	for (const [name, value] of writeHeadHeaders ?? []) merged.set(name, value);
	return merged;
}

/**
 * What one exchange leaves behind for the log: plain values, not the request and response objects (so a pending
 * entry holds no socket), turned into a masked `LoggedExchange` only if the log keeps it.
 */
class ExchangeCapture implements LogEntrySource {
	readonly requestBody = new BodyRecorder();
	readonly responseBody = new BodyRecorder();
	/** The headers given to writeHead, which getHeaders() does not show. */
	writeHeadHeaders: HeaderMap | null = null;
	durationMs = 0;
	response: SentResponse | null = null;
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
		if (res.headersSent) this.response = new SentResponse(res.statusCode, res.statusMessage, sentHeaders(res, this.writeHeadHeaders));
		this.writeHeadHeaders = null;
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
		const requestBody = this.requestBody.text();
		const requestHeaders = headerPairs(this.rawHeaders);
		const responseHeaders = this.response ? headerList(this.response.headers) : [];
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
				body: maskBody(responseBody, this.response.headers.get('content-type')?.toString()),
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
		if (this.capture !== null) this.capture.writeHeadHeaders = headersOfWriteHead(typeof statusMessage === 'string' ? headers : statusMessage);
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

