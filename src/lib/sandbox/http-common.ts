/** node:http helpers both sandbox hosts use: reading a request body within a limit, and its media type. */
import type { IncomingMessage } from 'node:http';

export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: 'too-large' | 'aborted' };

const NO_BODY: BodyResult = Object.freeze({ ok: true, body: Buffer.alloc(0) });

/**
 * Whether the headers say there is no body: a length of 0, or neither Content-Length nor Transfer-Encoding (RFC 9112
 * 6.3: such a request has none). A token request with its parameters in the query string is one; it skips the
 * listeners a body needs.
 */
function hasNoBody(req: IncomingMessage): boolean {
	const length = req.headers['content-length'];
	return length === '0' || (length === undefined && req.headers['transfer-encoding'] === undefined);
}

const TOO_LARGE: BodyResult = Object.freeze({ ok: false, reason: 'too-large' });

/**
 * Reads the body up to `limit` bytes. A body that is larger (by its Content-Length, or once more than `limit` bytes
 * came) is answered at once as too large, so the 413 reaches the client while it is still sending; the rest is
 * drained, not buffered, and a client that keeps sending far beyond the limit is disconnected.
 */
export function readBodyUpTo(req: IncomingMessage, limit: number): Promise<BodyResult> {
	if (hasNoBody(req)) {
		req.resume(); // nothing to read: the request ends at once, and its connection can serve the next one
		return Promise.resolve(NO_BODY);
	}
	if (Number(req.headers['content-length'] ?? 0) > limit) {
		drain(req, limit);
		return Promise.resolve(TOO_LARGE);
	}
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const onData = (chunk: Buffer) => {
			size += chunk.length;
			if (size <= limit) return void chunks.push(chunk);
			req.off('data', onData);
			drain(req, limit, size);
			resolve(TOO_LARGE);
		};
		req.on('data', onData);
		req.on('end', () => resolve(size > limit ? TOO_LARGE : { ok: true, body: Buffer.concat(chunks) }));
		req.on('error', () => resolve({ ok: false, reason: 'aborted' }));
		req.on('close', () => {
			if (!req.complete) resolve({ ok: false, reason: 'aborted' });
		});
	});
}

/** Discards the rest of a body too large to read; past 64 times the limit, the client is cut off. */
function drain(req: IncomingMessage, limit: number, received = 0): void {
	let size = received;
	req.on('data', (chunk: Buffer) => {
		size += chunk.length;
		if (size > limit * 64) req.destroy();
	});
	req.resume();
}

/** The media type of the request, lower case, without parameters. */
export function mediaType(req: IncomingMessage): string {
	return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}
