/**
 * The JSON body of an explorer API request, read with its schema: a body that is not JSON, or not what the schema
 * says, is a 400 that says what was wrong; `example`, if given, shows what to send.
 */
import type { z } from 'zod';
import { JsonTooDeepError, jsonParse, schemaProblems } from '../http/json';
import { badRequest } from './errors';

export async function readJsonBody<T extends z.ZodType>(request: Request, schema: T, example?: string): Promise<z.infer<T>> {
	let body: unknown;
	try {
		body = jsonParse(await request.text());
	} catch (error) {
		// The parser's own words would quote the body back; only the depth is worth saying.
		const deep = error instanceof JsonTooDeepError ? ` ${error.message}` : '';
		throw badRequest(`The request body must be JSON${example ? `, e.g. ${example}` : ''}.${deep}`);
	}
	const parsed = schema.safeParse(body);
	if (!parsed.success) throw badRequest(schemaProblems(parsed.error).join('; '));
	return parsed.data;
}
