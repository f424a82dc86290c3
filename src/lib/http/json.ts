/** Reading a body that may be JSON, without exceptions for the caller: most bodies searched are not JSON. */
import type { z } from 'zod';

/** Whether a body starts like a JSON object or array (what a JSON answer or request body is). */
export const looksLikeJson = (body: string) => /^\s*[{[]/.test(body);

/**
 * Deeper than any JSON a client, an app or the service writes. Parsing a megabyte of `[[[…` takes the parser most
 * of a second, and what reads the result recursively (masking, redaction) would run out of stack.
 */
export const MAX_JSON_DEPTH = 256;

/** Whether `text` nests arrays and objects more than `max` deep (strings skipped), in one pass over it. */
export function nestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
	if (text.length <= max) return false;
	let depth = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (inString) {
			if (c === 0x5c) i++;
			else if (c === 0x22) inString = false;
		} else if (c === 0x22) inString = true;
		else if (c === 0x5b || c === 0x7b) {
			if (++depth > max) return true;
		} else if (c === 0x5d || c === 0x7d) depth--;
	}
	return false;
}

/** JSON nested deeper than MAX_JSON_DEPTH: a SyntaxError, as JSON.parse throws for what it refuses. */
export class JsonTooDeepError extends SyntaxError {
	constructor() {
		super(`It nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep.`);
	}
}

/** JSON.parse of untrusted text, refusing nesting deeper than MAX_JSON_DEPTH (JsonTooDeepError). */
export function jsonParse(text: string): unknown {
	if (nestsDeeperThan(text)) throw new JsonTooDeepError();
	return JSON.parse(text);
}

/** The parsed JSON, or why `text` is not JSON (the parser's words, for a person). */
export function readJson(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
	try {
		return { ok: true, value: jsonParse(text) };
	} catch (error) {
		return { ok: false, problem: (error as Error).message };
	}
}

/** The parsed JSON, or undefined when `text` is not JSON. */
export function parseJson(text: string): unknown {
	const read = readJson(text);
	return read.ok ? read.value : undefined;
}

/** What a schema found wrong with a parsed JSON body, one line per issue: `path: message`, `body` for the whole. */
export function schemaProblems(error: z.ZodError): string[] {
	return error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : 'body'}: ${issue.message}`);
}
