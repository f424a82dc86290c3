/**
 * The typed entry of the sandbox's request log: what one exchange with either host left behind, masked, and the keys
 * that tie it to the other requests of its sign-in. One zod schema, which the sandbox writes through and every reader
 * goes through (the live view, evidence on a run, the panel, the embedded sandbox, and the app check over the control
 * API), so no reader casts or reads a field of its own guessing.
 */
import { z } from 'zod';

export const SANDBOX_HOSTS = ['authorisation', 'accounts'] as const;
export type SandboxHost = (typeof SANDBOX_HOSTS)[number];

const Header = z.object({ name: z.string(), value: z.string() });

/**
 * What ties an entry to the other requests of its sign-in, without revealing any credential: the client id as
 * sent, and short keyed digests (HMAC with a key of the sandbox's process, never shown) of the sign-in flow's id,
 * the grant code the redirect carried or the exchange sent, the token presented and the tokens issued. Equal values
 * give equal digests, so a reader joins a redirect to its exchange and an exchange to its me.json calls.
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
	/** Unique among every entry the sandbox logged: the exchange's id for the live view and the engine. */
	ref: z.string(),
	host: z.enum(SANDBOX_HOSTS),
	/** Sandbox clock time when the request arrived (the workspace's clock, which may have been moved). */
	sandboxAt: z.string(),
	durationMs: z.number(),
	request: z.object({ method: z.string(), url: z.string(), headers: z.array(Header), body: z.string().nullable() }),
	/** Null when the client went away before a response was sent. */
	response: z.object({ status: z.number(), statusText: z.string(), headers: z.array(Header), body: z.string(), truncated: z.boolean() }).nullable(),
	/** Absent from entries written before keys existed. */
	keys: CorrelationKeysSchema.default({})
});
export type LoggedExchange = z.infer<typeof LoggedExchangeSchema>;

/** A written entry (`GET /sandbox/log` answers these): its row's id, when it was written (wall time) and the exchange. */
export interface LogEntry {
	id: number;
	at: string;
	host: SandboxHost;
	entry: LoggedExchange;
}

const EntryRow = z.object({ id: z.number(), at: z.string(), host: z.enum(SANDBOX_HOSTS) });

/**
 * An exchange as stored or answered, read back; null for one this version cannot read. Entries written before they
 * had refs get their row's id as one.
 */
export function readLoggedExchange(raw: unknown, rowId: number): LoggedExchange | null {
	const withRef = typeof raw === 'object' && raw !== null && !('ref' in raw) ? { ...raw, ref: `log-${rowId}` } : raw;
	const parsed = LoggedExchangeSchema.safeParse(withRef);
	return parsed.success ? parsed.data : null;
}

/** An entry as the control API answers it, or null for one this version cannot read. */
export function readLogEntry(raw: unknown): LogEntry | null {
	const row = EntryRow.safeParse(raw);
	if (!row.success) return null;
	const entry = readLoggedExchange((raw as { entry?: unknown }).entry, row.data.id);
	return entry && { ...row.data, entry };
}
