/**
 * The JSON body of an explorer API request, read with its schema: a body that is not JSON, or not what the schema
 * says, is a 400 that says what was wrong; `example`, if given, shows what to send.
 */
import type { z } from 'zod';
import { schemaProblems } from '../http/json';
import { badRequest } from './errors';

export async function readJsonBody<T extends z.ZodType>(request: Request, schema: T, example?: string): Promise<z.infer<T>> {
	const body: unknown = await request.json().catch(() => undefined);
	if (body === undefined) throw badRequest(example ? `The request body must be JSON, e.g. ${example}.` : 'The request body must be JSON.');
	const parsed = schema.safeParse(body);
	if (!parsed.success) throw badRequest(schemaProblems(parsed.error).join('; '));
	return parsed.data;
}
