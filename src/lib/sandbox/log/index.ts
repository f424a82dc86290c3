/** The sandbox's request log: capture on both hosts, the typed entry, correlation keys, the per-workspace buffer. */
export { loggedServer, useWorkspace, type LoggedServerOptions } from './capture';
export { attribute, attributePresented, namesAsSent, workspaceNamed } from './attribute';
export { correlationDigest } from './correlation';
export { LOG_CAPACITY, openLogBuffer, type LiveLogEntry, type LogBuffer, type LogListener } from './buffer';
export type { LogEntryInput, LogEntrySource } from './entry';
/** The typed entry itself is shared with the log's readers: `$lib/http/logged-exchange`. */
export { LoggedExchangeSchema, type CorrelationKeys, type LogEntry, type LoggedExchange, type SandboxHost } from '../../http/logged-exchange';
