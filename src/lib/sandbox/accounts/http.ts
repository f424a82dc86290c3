/** Small, strict HTTP helpers for the accounts host: request target, parameters, body, responses. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeFormComponentStrictly } from '../../http/form';
import { readBodyUpTo, type BodyResult } from '../http-common';

export { mediaType } from '../http-common';

/** Largest request body read; larger bodies get a 413. */
export const MAX_BODY_BYTES = 64 * 1024;
/** Longest parameter value accepted; codes and tokens are 43 characters, redirect URIs rarely exceed 2 KB. */
export const MAX_PARAMETER_LENGTH = 8 * 1024;

/** A request header's (first) value. */
export function headerValue(req: IncomingMessage, name: string): string | undefined {
	const value = req.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

/** Path and raw query of the request target, without trusting it to be a well-formed URL. */
export function splitTarget(target: string | undefined): { path: string; query: string } {
	let rest = target ?? '/';
	// Absolute-form (sent to proxies): keep only the path and query.
	if (!rest.startsWith('/')) rest = URL.canParse(rest) ? new URL(rest).pathname + new URL(rest).search : '/';
	const q = rest.indexOf('?');
	return q === -1 ? { path: rest, query: '' } : { path: rest.slice(0, q), query: rest.slice(q + 1) };
}

export type Params = Map<string, string>;
export type ParamsResult = { ok: true; params: Params } | { ok: false; problem: string };

/**
 * Parses `application/x-www-form-urlencoded` text strictly: malformed percent-encoding, NUL bytes, over-long
 * values and repeated parameters are problems (RFC 6749 3.1: parameters must not be included more than once),
 * where URLSearchParams would silently guess. Empty values count as absent.
 */
export function parseParams(text: string, where: string): ParamsResult {
	const params: Params = new Map();
	for (const pair of text.split('&')) {
		if (pair === '') continue;
		const eq = pair.indexOf('=');
		const rawName = eq === -1 ? pair : pair.slice(0, eq);
		const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
		const name = decodeFormComponentStrictly(rawName);
		if (name === null) return { ok: false, problem: `A parameter name in the ${where} has malformed percent-encoding.` };
		const value = decodeFormComponentStrictly(rawValue);
		if (value === null) return { ok: false, problem: `\`${name}\` in the ${where} has malformed percent-encoding (each % must start a valid UTF-8 %XX sequence).` };
		if (name.includes('\0') || value.includes('\0')) return { ok: false, problem: `\`${name}\` in the ${where} contains a NUL byte.` };
		if (value.length > MAX_PARAMETER_LENGTH) {
			return { ok: false, problem: `\`${name}\` in the ${where} is ${value.length} characters long; the limit is ${MAX_PARAMETER_LENGTH}.` };
		}
		if (value === '') continue;
		if (params.has(name)) return { ok: false, problem: `\`${name}\` appears more than once in the ${where}; send it once.` };
		params.set(name, value);
	}
	return { ok: true, params };
}

/** Reads the body up to `limit` bytes (see `readBodyUpTo`). */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BodyResult> {
	return readBodyUpTo(req, limit);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	sendJsonText(res, status, JSON.stringify(body), headers);
}

/** `sendJson` for a body already serialised. */
export function sendJsonText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
	res.writeHead(status, {
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': Buffer.byteLength(text),
		...headers
	});
	res.end(text);
}

export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
	res.writeHead(status, { 'Content-Length': 0, ...headers });
	res.end();
}
