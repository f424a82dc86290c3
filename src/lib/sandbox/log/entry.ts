/**
 * What the sandbox's hosts hand the request log: a source that builds the typed entry (`$lib/http/logged-exchange`,
 * the one schema every reader of the log goes through) only if the log keeps it.
 */
import type { LoggedExchange, SandboxHost } from '../../http/logged-exchange';

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
