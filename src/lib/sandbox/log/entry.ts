/**
 * The typed entry of the sandbox's request log: what one exchange with either host leaves behind, masked, and the
 * keys that tie it to the other requests of its sign-in. One zod schema, which every reader of the log goes through
 * (the live view, evidence on a run, the panel; the control API answers it as written), so no reader casts.
 */
import { z } from 'zod';

export type SandboxHost = 'authorisation' | 'accounts';

const Header = z.object({ name: z.string(), value: z.string() });

/**
 * What ties an entry to the other requests of its sign-in, without revealing any credential: the client id as
 * sent, and short keyed digests (HMAC with a key of this process, never shown) of the sign-in flow's id, the grant
 * code the redirect carried or the exchange sent, the token presented and the tokens issued. Equal values give
 * equal digests, so the live view joins a redirect to its exchange and an exchange to its me.json calls.
 */
export const CorrelationKeysSchema = z.object({
	clientId: z.string().optional(),
	authFlow: z.string().optional(),
	code: z.string().optional(),
	presented: z.string().optional(),
	issued: z.array(z.string()).optional()
});
export type CorrelationKeys = z.infer<typeof CorrelationKeysSchema>;

export const LoggedExchangeSchema = z.object({
	/** Unique among every entry this sandbox logged: the live view's id of the exchange. */
	ref: z.string(),
	host: z.enum(['authorisation', 'accounts']),
	/** Sandbox clock time when the request arrived. */
	sandboxAt: z.string(),
	durationMs: z.number(),
	request: z.object({ method: z.string(), url: z.string(), headers: z.array(Header), body: z.string().nullable() }),
	/** Null when the client went away before a response was sent. */
	response: z.object({ status: z.number(), statusText: z.string(), headers: z.array(Header), body: z.string(), truncated: z.boolean() }).nullable(),
	/** Absent from entries written before keys existed. */
	keys: CorrelationKeysSchema.default({})
});
export type LoggedExchange = z.infer<typeof LoggedExchangeSchema>;

/** A written entry: its row's id, when it was written (wall time) and the exchange. */
export interface LogEntry {
	id: number;
	at: string;
	host: SandboxHost;
	entry: LoggedExchange;
}

/**
 * A stored entry read back, or null for a row this version cannot read. Entries written before they had refs get
 * their row's id as one.
 */
export function readLoggedExchange(json: string, rowId: number): LoggedExchange | null {
	const raw: unknown = JSON.parse(json);
	const withRef = typeof raw === 'object' && raw !== null && !('ref' in raw) ? { ...raw, ref: `log-${rowId}` } : raw;
	const parsed = LoggedExchangeSchema.safeParse(withRef);
	return parsed.success ? parsed.data : null;
}

export interface LogEntrySource {
	/**
	 * Builds the record of the exchange, already masked. Called only for entries the log keeps when it is written,
	 * so a burst of requests costs the building of the last `LOG_CAPACITY` only.
	 */
	build(): LoggedExchange;
}

export interface LogEntryInput {
	host: SandboxHost;
	entry: LogEntrySource;
}
