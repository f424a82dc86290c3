/**
 * The subset of HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) that export writes and import reads.
 * Strict on the fields the format requires, lenient on everything else: browsers add their own `_`-prefixed
 * fields, and those are dropped. Our own extras live in `_ssoFlowExplorer` fields, read by their own schemas.
 */
import { z } from 'zod';
import { EVIDENCE_SOURCES } from '$lib/flow/exchange';
import { StoredStepSchema } from '../legacy-step';
import { RUN_SOURCES } from '../run';

const NameValue = z.object({ name: z.string(), value: z.string() });
const Cookie = z.object({ name: z.string(), value: z.string() });
const comment = z.string().optional();
const extras = z.unknown().optional();

export const HarRequestSchema = z.object({
	method: z.string(),
	url: z.string(),
	httpVersion: z.string(),
	cookies: z.array(Cookie),
	headers: z.array(NameValue),
	queryString: z.array(NameValue),
	postData: z
		.object({
			mimeType: z.string(),
			text: z.string().optional(),
			params: z.array(z.object({ name: z.string(), value: z.string().optional() })).optional()
		})
		.optional(),
	headersSize: z.number(),
	bodySize: z.number(),
	comment
});

export const HarResponseSchema = z.object({
	status: z.number().int(),
	statusText: z.string(),
	httpVersion: z.string(),
	cookies: z.array(Cookie),
	headers: z.array(NameValue),
	content: z.object({
		size: z.number(),
		mimeType: z.string(),
		text: z.string().optional(),
		encoding: z.string().optional()
	}),
	redirectURL: z.string(),
	headersSize: z.number(),
	bodySize: z.number(),
	/** Chrome's reason for a response that never came (status 0). */
	_error: z.string().nullish(),
	comment
});

export const HarEntrySchema = z.object({
	startedDateTime: z.string(),
	time: z.number(),
	request: HarRequestSchema,
	response: HarResponseSchema,
	cache: z.object({}),
	timings: z.object({ send: z.number(), wait: z.number(), receive: z.number() }),
	comment,
	_ssoFlowExplorer: extras
});

export const HarSchema = z.object({
	log: z.object({
		version: z.string(),
		creator: z.object({ name: z.string(), version: z.string() }),
		entries: z.array(HarEntrySchema),
		comment,
		_ssoFlowExplorer: extras
	})
});

export type Har = z.infer<typeof HarSchema>;
export type HarEntry = z.infer<typeof HarEntrySchema>;

/* ------------------------------------------------------------------ our extras */

const FailureSchema = z.discriminatedUnion('kind', [
	z.object({ kind: z.literal('refused'), message: z.string() }),
	z.object({ kind: z.literal('unreachable'), message: z.string() }),
	z.object({ kind: z.literal('timeout'), message: z.string(), timeoutMs: z.number() }),
	z.object({ kind: z.literal('too-large'), message: z.string() })
]);

/** What HAR cannot say about an exchange, so an exported run comes back exactly. */
export const EntryExtrasSchema = z.object({
	exchange: z
		.object({
			index: z.number().int().nonnegative(),
			id: z.string(),
			/** Read with `currentStep`: an export made before 2026-11 may carry the old name. */
			step: StoredStepSchema,
			label: z.string(),
			hasResponse: z.boolean(),
			truncated: z.boolean(),
			failure: FailureSchema.nullable(),
			masked: z.array(
				z.object({
					kind: z.enum(['client_secret', 'access_token', 'refresh_token', 'code', 'sandbox_key']),
					where: z.string(),
					hint: z.string()
				})
			),
			evidence: z
				.object({
					source: z.enum(EVIDENCE_SOURCES),
					timed: z.boolean(),
					matchedBy: z.enum(['time', 'code', 'token', 'step'])
				})
				.optional(),
			tokenTails: z.array(z.string()).optional(),
			/** The headers a sanitised export removed from this exchange. */
			strippedHeaders: z.array(z.string()).optional()
		})
		.optional(),
	/** This entry is the run's authorisation link. */
	runLink: z.boolean().optional(),
	/** This entry is the run's callback: the browser's arrival at the redirect URI. */
	runCallback: z.boolean().optional()
});
export type EntryExtras = z.infer<typeof EntryExtrasSchema>;

export const LogExtrasSchema = z.object({
	format: z.literal(1),
	id: z.string(),
	title: z.string(),
	createdAt: z.string(),
	target: z.object({ kind: z.enum(['sandbox', 'custom']), authUrl: z.string(), accountsUrl: z.string() }),
	sandboxClock: z.string().nullable(),
	redactions: z.array(z.object({ what: z.string(), where: z.string() })),
	source: z.enum(RUN_SOURCES),
	/** The run came from a sanitised HAR export: the headers it hid. */
	sanitised: z.object({ hidden: z.array(z.string()) }).optional()
});
export type LogExtras = z.infer<typeof LogExtrasSchema>;
