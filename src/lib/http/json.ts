/** Reading a body that may be JSON, without exceptions for the caller: most bodies searched are not JSON. */
import type { z } from 'zod';

/** Whether a body starts like a JSON object or array (what a JSON answer or request body is). */
export const looksLikeJson = (body: string) => /^\s*[{[]/.test(body);

/** The parsed JSON, or why `text` is not JSON (the parser's words, for a person). */
export function readJson(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
	try {
		return { ok: true, value: JSON.parse(text) };
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
