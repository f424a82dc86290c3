/**
 * The saved runs' database: its tables, how a database of an earlier version is brought to this one, and the
 * statements the run store (store.ts) reads and writes them with.
 */
import type Database from 'better-sqlite3';
import type { RecordedExchange } from '$lib/flow/exchange';
import type { Run } from '$lib/features/runs/pure/run';
import type { RedactedExchange, RedactedRun } from '$lib/features/runs/pure/redact/redact';
import type { Frozen } from '$lib/frozen';
import type { RunTriage } from '$lib/features/runs/pure/triage';
import type { OwnerUsage } from './run-limits';

/**
 * Version 2: each exchange of a run is a row of its own, with its part of the outcome and of what a search
 * matches. Version 1 (user_version 0) kept
 * each run as one JSON document; `migrate` converts it. Version 3 adds each run's owner (a digest of the session
 * that made it): a version 2 run gets none, so it is listed to nobody and stays reachable by its permalink.
 * Version 4 adds what the list triages by (triage.ts: the client, the verdict), worked out when a run is saved; a
 * run saved before has NULL there until its owner's list first shows it (`triageMissing`), so no migration
 * diagnoses every stored run at start-up, and no list diagnoses a run twice.
 * Version 5 adds what each run and exchange takes (run-limits.ts), measured once for the runs already stored.
 * Version 6 adds the visitor that first saved each run (a digest of its address) and when, for the per-visitor
 * limit over a day (run-limits.ts); runs saved before have none and count against no visitor.
 */
export const SCHEMA_VERSION = 6;

const TRIAGE_COLUMNS = `
ALTER TABLE runs ADD COLUMN client_id TEXT;
ALTER TABLE runs ADD COLUMN verdict TEXT;
ALTER TABLE runs ADD COLUMN verdict_what TEXT;
`;

/** Sizes are the stored JSON's length in characters: what a run takes, near enough, without encoding it again. */
const SIZE_COLUMNS = `
ALTER TABLE runs ADD COLUMN stored_bytes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_exchanges ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
UPDATE run_exchanges SET bytes = length(exchange_json) + length(redactions_json);
UPDATE runs SET stored_bytes = length(head_json) + COALESCE((SELECT SUM(e.bytes) FROM run_exchanges e WHERE e.run_id = runs.id), 0);
`;

const VISITOR_COLUMN = `
ALTER TABLE runs ADD COLUMN visitor TEXT;
ALTER TABLE runs ADD COLUMN visitor_ms INTEGER;
CREATE INDEX runs_visitor ON runs (visitor, visitor_ms) WHERE visitor IS NOT NULL;
`;

const OWNER_COLUMN = `
ALTER TABLE runs ADD COLUMN owner TEXT;
CREATE INDEX runs_owner_updated ON runs (owner, updated_at DESC);
`;

const SCHEMA = `
CREATE TABLE runs (
	id TEXT PRIMARY KEY,
	title TEXT NOT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	source TEXT NOT NULL,
	target_kind TEXT NOT NULL,
	-- The run without its exchanges (RedactedRun's head) and what its redaction found there, as JSON.
	head_json TEXT NOT NULL,
	head_redactions TEXT NOT NULL,
	-- What a search matches outside the exchanges; how the outcome starts ("cancel" or ''), and what it says when no
	-- exchange adds to it.
	search_text TEXT NOT NULL,
	outcome_prefix TEXT NOT NULL,
	outcome_empty TEXT NOT NULL
);
CREATE INDEX runs_updated ON runs (updated_at DESC);
-- A rowid table: an exchange's row (a few KB) fits in its page, where a WITHOUT ROWID table would spill most of
-- it to overflow pages, each one more page written per step.
CREATE TABLE run_exchanges (
	run_id TEXT NOT NULL,
	seq INTEGER NOT NULL,
	exchange_json TEXT NOT NULL,
	-- {named, searched}: what each pass of the redaction found in this exchange.
	redactions_json TEXT NOT NULL,
	-- Its part of the run's outcome ("200 me.json"), '' for none; what a search matches in it.
	outcome TEXT NOT NULL,
	search_text TEXT NOT NULL,
	UNIQUE (run_id, seq)
);
`;

/**
 * e.g. "200 me.json", or "link 400" for an authorisation link the service refused (7.1); '' for any other exchange
 * (a link it answered, a sign-in page).
 */
function exchangeOutcome(e: Frozen<RecordedExchange>): string {
	if (e.step === 'link') return e.response && e.response.status >= 400 ? `link ${e.response.status}` : '';
	if (e.step !== 'token' && e.step !== 'me') return '';
	return `${e.response ? e.response.status : (e.failure?.kind ?? 'no response')} ${e.step === 'me' ? 'me.json' : 'token'}`;
}


/** What a search matches: title, URLs, statuses, error codes and messages of the run. */
function headSearchText(run: Run): string {
	return [run.title, run.link ?? '', run.callback?.url ?? '', run.target.authUrl, run.target.accountsUrl].join('\n').toLowerCase();
}

function exchangeSearchText(e: Frozen<RecordedExchange>): string {
	return [e.label, e.request.url, String(e.response?.status ?? ''), e.response?.body.slice(0, 2000) ?? '', e.failure?.message ?? ''].join('\n').toLowerCase();
}

/** A stored run of version 1 (one JSON document, already redacted) in version 2's pieces; assembles to the same run. */
function storedRunPieces(json: string): RedactedRun | undefined {
	let run: Run;
	try {
		run = JSON.parse(json) as Run;
	} catch {
		return undefined;
	}
	if (typeof run !== 'object' || run === null || !Array.isArray(run.exchanges)) return undefined;
	return {
		head: { ...run, exchanges: [] },
		headRedactions: { named: [], searched: [] },
		exchanges: run.exchanges.map((exchange) => ({ exchange, named: [], searched: [] }))
	};
}


export type Statements = ReturnType<typeof prepareStatements>;

/** Who first saved a run: the owner (a session's digest) and the visitor (an address's digest); null when not known. */
export interface RunSaver {
	owner: string | null;
	visitor: string | null;
}
const NOBODY: RunSaver = { owner: null, visitor: null };
/** A run's first saver, with when (server time) its visitor saved it. */
type FirstSaver = RunSaver & { visitorMs: number | null };

/** Checks (and on success counts) what a save, written but not committed, adds to its first saver's runs; throws to refuse it. */
export type SaveLimits = (saver: FirstSaver, added: OwnerUsage) => void;

export function prepareStatements(db: Database.Database) {
	const upsertHead = db.prepare(`
		INSERT INTO runs (id, title, created_at, updated_at, source, target_kind, head_json, head_redactions, search_text, outcome_prefix, outcome_empty, owner, visitor, visitor_ms, client_id, verdict, verdict_what)
		VALUES (@id, @title, @createdAt, @updatedAt, @source, @targetKind, @headJson, @headRedactions, @searchText, @outcomePrefix, @outcomeEmpty, @owner, @visitor, @visitorMs, @clientId, @verdict, @verdictWhat)
		ON CONFLICT (id) DO UPDATE SET title = excluded.title, updated_at = excluded.updated_at, target_kind = excluded.target_kind,
			head_json = excluded.head_json, head_redactions = excluded.head_redactions, search_text = excluded.search_text,
			outcome_prefix = excluded.outcome_prefix, outcome_empty = excluded.outcome_empty,
			client_id = excluded.client_id, verdict = excluded.verdict, verdict_what = excluded.verdict_what`);
	// A row whose exchange and redactions are as stored is left alone: a walk saves its whole run at every step, and
	// rewriting its unchanged exchanges was most of the save's writes.
	const upsertExchange = db.prepare(`
		INSERT INTO run_exchanges (run_id, seq, exchange_json, redactions_json, outcome, search_text, bytes)
		VALUES (@runId, @seq, @exchangeJson, @redactionsJson, @outcome, @searchText, @bytes)
		ON CONFLICT (run_id, seq) DO UPDATE SET exchange_json = excluded.exchange_json, redactions_json = excluded.redactions_json,
			outcome = excluded.outcome, search_text = excluded.search_text, bytes = excluded.bytes
		WHERE exchange_json <> excluded.exchange_json OR redactions_json <> excluded.redactions_json`);
	const removeExchangesFrom = db.prepare('DELETE FROM run_exchanges WHERE run_id = ? AND seq >= ?');
	const headById = db.prepare('SELECT head_json, head_redactions, owner FROM runs WHERE id = ?');
	const exchangesById = db.prepare('SELECT exchange_json, redactions_json FROM run_exchanges WHERE run_id = ? ORDER BY seq');
	const search = db.prepare(`
		SELECT r.id, r.title, r.created_at AS createdAt, r.updated_at AS updatedAt, r.source, r.target_kind AS targetKind,
			r.outcome_prefix AS prefix, r.outcome_empty AS empty, r.client_id AS clientId, r.verdict, r.verdict_what AS verdictWhat,
			(SELECT group_concat(e.outcome, ', ' ORDER BY e.seq) FROM run_exchanges e WHERE e.run_id = r.id AND e.outcome <> '') AS parts
		FROM runs r
		WHERE (@owner IS NULL OR r.owner = @owner)
			AND (@verdict IS NULL OR r.verdict = @verdict) AND (@client IS NULL OR r.client_id = @client)
			AND (@sources IS NULL OR r.source IN (SELECT value FROM json_each(@sources)))
			AND (r.search_text LIKE @pattern ESCAPE '\\' OR r.title LIKE @pattern ESCAPE '\\'
				OR EXISTS (SELECT 1 FROM run_exchanges e WHERE e.run_id = r.id AND e.search_text LIKE @pattern ESCAPE '\\'))
		ORDER BY r.updated_at DESC, r.rowid DESC LIMIT @limit`);
	const removeHead = db.prepare('DELETE FROM runs WHERE id = ?');
	const clientsOf = db.prepare('SELECT DISTINCT client_id FROM runs WHERE owner = ? AND client_id IS NOT NULL ORDER BY client_id LIMIT 100').pluck();
	const untriaged = db.prepare('SELECT id FROM runs WHERE (@owner IS NULL OR owner = @owner) AND verdict IS NULL LIMIT @limit').pluck();
	const setTriage = db.prepare('UPDATE runs SET client_id = @clientId, verdict = @verdict, verdict_what = @verdictWhat WHERE id = @id');
	const sizeById = db.prepare<[string], { owner: string | null; visitor: string | null; visitor_ms: number | null; stored_bytes: number }>(
		'SELECT owner, visitor, visitor_ms, stored_bytes FROM runs WHERE id = ?'
	);
	const exchangeBytes = db.prepare<[string], number>('SELECT COALESCE(SUM(bytes), 0) FROM run_exchanges WHERE run_id = ?').pluck();
	const setStoredBytes = db.prepare('UPDATE runs SET stored_bytes = ? WHERE id = ?');
	const usageOf = db.prepare<[string], OwnerUsage>('SELECT COUNT(*) AS runs, COALESCE(SUM(stored_bytes), 0) AS bytes FROM runs WHERE owner = ?');
	/** What a visitor first saved since a time (ms): the runs of its sliding day. */
	const usageOfVisitor = db.prepare<[string, number], OwnerUsage>('SELECT COUNT(*) AS runs, COALESCE(SUM(stored_bytes), 0) AS bytes FROM runs WHERE visitor = ? AND visitor_ms > ?');

	/**
	 * Writes the pieces of `run`, in place of what was stored under its id. `stored`: the pieces last written under
	 * that id, if known; a piece that is the very same object (the redaction's memo hands back an unchanged exchange's
	 * piece) is stored already and is not serialised again.
	 */
	const write = db.transaction((run: RedactedRun, updatedAt: string, saver: RunSaver, triage: RunTriage | null, stored: readonly RedactedExchange[] = [], limits?: SaveLimits): void => {
		const { head } = run;
		const prior = sizeById.get(head.id);
		const visitorMs = saver.visitor === null ? null : Date.now();
		const headJson = JSON.stringify(head);
		upsertHead.run({
			id: head.id,
			title: head.title,
			createdAt: head.createdAt,
			updatedAt,
			source: head.source,
			targetKind: head.target.kind,
			headJson,
			headRedactions: JSON.stringify(run.headRedactions),
			searchText: headSearchText(head),
			outcomePrefix: head.callback && !/[?&]code=/.test(head.callback.url) ? 'cancel' : '',
			// The last step reached when no exchange says more: a code that arrived, else a link built.
			outcomeEmpty: head.callback ? 'code received' : head.link ? 'link built' : 'empty',
			// Set when the run is first saved; saving it again never changes who owns it, nor whose address saved it.
			owner: saver.owner,
			visitor: saver.visitor,
			visitorMs,
			clientId: triage?.clientId ?? null,
			verdict: triage?.verdict ?? null,
			verdictWhat: triage?.verdictWhat ?? null
		});
		removeExchangesFrom.run(head.id, run.exchanges.length);
		run.exchanges.forEach((piece, seq) => {
			if (stored[seq] === piece) return;
			const exchangeJson = JSON.stringify(piece.exchange);
			const redactionsJson = JSON.stringify({ named: piece.named, searched: piece.searched });
			upsertExchange.run({
				runId: head.id,
				seq,
				exchangeJson,
				redactionsJson,
				outcome: exchangeOutcome(piece.exchange),
				searchText: exchangeSearchText(piece.exchange),
				bytes: exchangeJson.length + redactionsJson.length
			});
		});
		const bytes = headJson.length + exchangeBytes.get(head.id)!;
		setStoredBytes.run(bytes, head.id);
		// The run counts against whoever first saved it; a check that throws rolls the whole save back.
		const firstSaver = prior ? { owner: prior.owner, visitor: prior.visitor, visitorMs: prior.visitor_ms } : { ...saver, visitorMs };
		if (limits) limits(firstSaver, { runs: prior ? 0 : 1, bytes: bytes - (prior?.stored_bytes ?? 0) });
	});

	return { write, headById, exchangesById, search, removeHead, removeExchangesFrom, clientsOf, untriaged, setTriage, sizeById, usageOf, usageOfVisitor };
}

/** Writes a version 1 run in version 2's rows; false, having written nothing, for a run it cannot read. */
function convertStoredRun({ write }: Statements, json: string, updatedAt: string): boolean {
	const pieces = storedRunPieces(json);
	if (!pieces) return false;
	try {
		write(pieces, updatedAt, NOBODY, null); // its own savepoint: a failure leaves none of the run behind
		return true;
	} catch {
		return false;
	}
}

/**
 * Brings a database of an earlier version (user_version below SCHEMA_VERSION) to this one; the caller runs it in
 * one transaction. A version 1 run that cannot be read stays in `runs_v1` rather than being lost.
 */
export function migrate(db: Database.Database, version: number, fromVersion1: boolean): Statements {
	if (version >= 2) {
		db.exec((version === 2 ? OWNER_COLUMN : '') + (version <= 3 ? TRIAGE_COLUMNS : '') + (version <= 4 ? SIZE_COLUMNS : '') + VISITOR_COLUMN);
		db.pragma(`user_version = ${SCHEMA_VERSION}`);
		return prepareStatements(db);
	}
	if (fromVersion1) db.exec('ALTER TABLE runs RENAME TO runs_v1; DROP INDEX IF EXISTS runs_updated;');
	db.exec(SCHEMA + OWNER_COLUMN + TRIAGE_COLUMNS + SIZE_COLUMNS + VISITOR_COLUMN);
	const statements = prepareStatements(db);
	if (fromVersion1) {
		const rows = db.prepare('SELECT rowid, run_json, updated_at FROM runs_v1 ORDER BY rowid').all() as { rowid: number; run_json: string; updated_at: string }[];
		const removeConverted = db.prepare('DELETE FROM runs_v1 WHERE rowid = ?');
		let unreadable = 0;
		for (const row of rows) {
			if (!convertStoredRun(statements, row.run_json, row.updated_at)) {
				unreadable++;
				continue;
			}
			removeConverted.run(row.rowid);
		}
		if (unreadable === 0) db.exec('DROP TABLE runs_v1');
		else console.warn(`Saved runs: ${unreadable} run(s) of the first version could not be read; they are kept in the table runs_v1 of ${db.name}.`);
	}
	db.pragma(`user_version = ${SCHEMA_VERSION}`);
	return statements;
}
