/**
 * How large a request body each of the explorer's routes accepts. adapter-node's single BODY_SIZE_LIMIT (512 KB
 * by default) is turned off by scripts/start.js: it applied to every route alike, and a body over it reached the
 * route as a failed read, which the route reported as a body that is not JSON. Here the HAR import takes files as
 * large as browsers save them (it reads them as a stream, and caps them itself), everything else a small body, and
 * a body over its route's limit is answered 413 with the limit in MB, before the route runs.
 */
import type { Handle } from '@sveltejs/kit';
import { formatBytes, harTooLargeMessage, MAX_HAR_BYTES } from '$lib/features/runs/pure';
import { errorResponse, tooLarge as bodyTooLarge } from './errors';

/** The import route: a HAR file itself as the body (`?kind=har`), read as it streams, or the JSON form. */
export const IMPORT_PATH = '/api/import';
/** The JSON form of the import (`{kind, text}`: pasted curl, raw HTTP, a small HAR) is read whole. */
export const IMPORT_JSON_LIMIT = 10 * 1024 * 1024;
/** Every other route: walk steps, lessons, scenarios, the control panel's forms. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** A run page's evidence: a server-side HAR file itself as the body (`?kind=har`), read as it streams like the import. */
const EVIDENCE_PATH = /^\/runs\/[^/]+\/evidence$/;

/** The routes that take a HAR file as the body and read it as it streams, capped at MAX_HAR_BYTES. */
const takesHar = (pathname: string) => pathname === IMPORT_PATH || EVIDENCE_PATH.test(pathname);

export function bodyLimitFor(pathname: string): number {
	return takesHar(pathname) ? MAX_HAR_BYTES : DEFAULT_BODY_LIMIT;
}

export function tooLarge(limit: number, size?: number): Response {
	const what = size === undefined ? `more than ${formatBytes(limit)}` : formatBytes(size);
	return errorResponse(bodyTooLarge(`The request body is ${what}; this address accepts at most ${formatBytes(limit)}.`));
}

function tooLargeFor(pathname: string, limit: number, size: number): Response {
	return takesHar(pathname) ? errorResponse(bodyTooLarge(harTooLargeMessage(limit, size))) : tooLarge(limit, size);
}

/** A body's chunks as they arrive. */
export async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
	const reader = body.getReader();
	try {
		for (let read = await reader.read(); !read.done; read = await reader.read()) yield read.value;
	} finally {
		reader.releaseLock();
	}
}

/** The body's bytes, or null past `limit` (reading stops there). */
export async function readBodyUpTo(body: ReadableStream<Uint8Array>, limit: number): Promise<Buffer | null> {
	const chunks: Uint8Array[] = [];
	let size = 0;
	for await (const chunk of chunksOf(body)) {
		size += chunk.byteLength;
		if (size > limit) return null;
		chunks.push(chunk);
	}
	return Buffer.concat(chunks);
}

/**
 * The hook: a declared length over the route's limit is refused at once. A body without a declared length
 * (chunked) is read here up to the limit, except a HAR's (the import, a run's evidence), which the route reads as a
 * stream and caps.
 */
export const limitRequestBodies: Handle = async ({ event, resolve }) => {
	const { request } = event;
	const limit = bodyLimitFor(event.url.pathname);
	const declared = request.headers.get('content-length');
	if (declared !== null) return Number(declared) > limit ? tooLargeFor(event.url.pathname, limit, Number(declared)) : resolve(event);
	if (request.body === null || takesHar(event.url.pathname)) return resolve(event);
	const bytes = await readBodyUpTo(request.body, limit);
	if (bytes === null) return tooLarge(limit);
	event.request = new Request(request, { body: new Uint8Array(bytes) });
	return resolve(event);
};
