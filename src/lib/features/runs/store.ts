/**
 * Saved runs, in SQLite beside the sandbox's database. A run is redacted before it is stored (the caller passes
 * what it knows to be secret; the redaction also finds credentials by name), so the database never holds a client
 * secret, an access token or a refresh token. Each exchange is stored on its own row (see SCHEMA_VERSION).
 */
import Database from 'better-sqlite3';
import { STEP_IDS, type RecordedExchange } from '$lib/flow/exchange';
import type { Run } from '$lib/features/runs/pure/run';
import { assembleRun, redactRunInParts, type KnownSecrets, type RedactedExchange, type RedactedRun } from '$lib/features/runs/pure/redact/redact';
import type { Frozen } from '$lib/frozen';
import { openCheckedDatabase } from '$lib/sqlite/open-checked';
import { triageOf, type RunFilters, type RunTriage } from '$lib/features/runs/pure/triage';
import { SOURCE_FILTERS, type VerdictSeverity } from '$lib/features/runs/pure/verdict-words';
import type { Verdict } from '$lib/flow/verdict';
import { storedExchangeSchema } from '$lib/features/runs/pure/legacy-step';
import { conflict } from '$lib/platform/errors';
import { WrittenPieces } from './written-pieces';

export interface RunSummary {
	id: string;
	title: string;
	createdAt: string;
	updatedAt: string;
	source: Run['source'];
	targetKind: Run['target']['kind'];
	/** e.g. "200 token, 403 me.json" */
	outcome: string;
	clientId: string | null;
	/** Null only for an old run beyond what one list triages (see TRIAGED_PER_LIST). */
	verdict: VerdictSeverity | null;
	verdictWhat: string | null;
}

export interface SaveOptions {
	/**
	 * When the list's triage (client, verdict) is worked out: at the save (the default), or when the owner's list
	 * next shows the run (`triageMissing`), for a run saved again at every step (a walk), whose list entry is read
	 * far less often than it is written: diagnosing the whole run at each save was a third of a step's cost.
	 */
	triage?: 'at-save' | 'when-listed';
	/**
	 * The verdict the triage takes, when the caller has just worked it out from this same run, already redacted (an
	 * import titles its run by it), so the run is not diagnosed twice; else the save works it out.
	 */
	verdict?: Verdict;
}

export interface RunStore {
	/**
	 * Redacts, then stores, the whole run again when it was saved before. Answers the redacted run in pieces:
	 * `assembleRun` gives the run, when the caller needs it.
	 */
	save(run: Frozen<Run>, secrets: KnownSecrets, owner?: string | null, options?: SaveOptions): RedactedRun;
	get(id: string): Run | undefined;
	/** The run and who owns it (null: saved before runs had owners, or by nobody's session). */
	find(id: string): { run: Run; owner: string | null } | undefined;
	/** `owner`: only that owner's runs (the /runs page always passes it); every run without it. */
	list(options?: { query?: string; limit?: number; owner?: string } & RunFilters): RunSummary[];
	/** The clients of the owner's runs, for the list's filter. */
	clients(owner: string): string[];
	remove(id: string): boolean;
	/**
	 * Whether a run saved since this store opened holds evidence added on its page (support/join.ts): a walk's
	 * next save must keep it. Known in memory only, as the walks that could drop it are.
	 */
	hasAddedEvidence(id: string): boolean;
	close(): void;
}

/**
 * Version 2: each exchange of a run is a row of its own, with its part of the outcome and of what a search
 * matches. Version 1 (user_version 0) kept
 * each run as one JSON document; `migrate` converts it. Version 3 adds each run's owner (a digest of the session
 * that made it): a version 2 run gets none, so it is listed to nobody and stays reachable by its permalink.
 * Version 4 adds what the list triages by (triage.ts: the client, the verdict), worked out when a run is saved; a
 * run saved before has NULL there until its owner's list first shows it (`triageMissing`), so no migration
 * diagnoses every stored run at start-up, and no list diagnoses a run twice.
 */
const SCHEMA_VERSION = 4;

const TRIAGE_COLUMNS = `
ALTER TABLE runs ADD COLUMN client_id TEXT;
ALTER TABLE runs ADD COLUMN verdict TEXT;
ALTER TABLE runs ADD COLUMN verdict_what TEXT;
`;
/** Runs of an owner triaged at most per list request: an old database's first list stays quick. */
const TRIAGED_PER_LIST = 200;

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

/** e.g. "200 me.json"; '' for an exchange that is neither a token exchange nor a me.json read. */
function exchangeOutcome(e: Frozen<RecordedExchange>): string {
	if (e.step !== 'token' && e.step !== 'me') return '';
	return `${e.response ? e.response.status : (e.failure?.kind ?? 'no response')} ${e.step === 'me' ? 'me.json' : 'token'}`;
}

/** The outcome a summary shows: "cancel" first for a callback without a code, then each exchange's part. */
function outcomeOf(prefix: string, parts: string | null, empty: string): string {
	return [prefix, parts ?? ''].filter((p) => p !== '').join(', ') || empty;
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

const LIKE_SPECIALS = /[\\%_]/g;

type Statements = ReturnType<typeof prepareStatements>;

function prepareStatements(db: Database.Database) {
	const upsertHead = db.prepare(`
		INSERT INTO runs (id, title, created_at, updated_at, source, target_kind, head_json, head_redactions, search_text, outcome_prefix, outcome_empty, owner, client_id, verdict, verdict_what)
		VALUES (@id, @title, @createdAt, @updatedAt, @source, @targetKind, @headJson, @headRedactions, @searchText, @outcomePrefix, @outcomeEmpty, @owner, @clientId, @verdict, @verdictWhat)
		ON CONFLICT (id) DO UPDATE SET title = excluded.title, updated_at = excluded.updated_at, target_kind = excluded.target_kind,
			head_json = excluded.head_json, head_redactions = excluded.head_redactions, search_text = excluded.search_text,
			outcome_prefix = excluded.outcome_prefix, outcome_empty = excluded.outcome_empty,
			client_id = excluded.client_id, verdict = excluded.verdict, verdict_what = excluded.verdict_what`);
	// A row whose exchange and redactions are as stored is left alone: a walk saves its whole run at every step, and
	// rewriting its unchanged exchanges was most of the save's writes.
	const upsertExchange = db.prepare(`
		INSERT INTO run_exchanges (run_id, seq, exchange_json, redactions_json, outcome, search_text)
		VALUES (@runId, @seq, @exchangeJson, @redactionsJson, @outcome, @searchText)
		ON CONFLICT (run_id, seq) DO UPDATE SET exchange_json = excluded.exchange_json, redactions_json = excluded.redactions_json,
			outcome = excluded.outcome, search_text = excluded.search_text
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

	/**
	 * Writes the pieces of `run`, in place of what was stored under its id. `stored`: the pieces last written under
	 * that id, if known; a piece that is the very same object (the redaction's memo hands back an unchanged exchange's
	 * piece) is stored already and is not serialised again.
	 */
	const write = db.transaction((run: RedactedRun, updatedAt: string, owner: string | null, triage: RunTriage | null, stored: readonly RedactedExchange[] = []): void => {
		const { head } = run;
		upsertHead.run({
			id: head.id,
			title: head.title,
			createdAt: head.createdAt,
			updatedAt,
			source: head.source,
			targetKind: head.target.kind,
			headJson: JSON.stringify(head),
			headRedactions: JSON.stringify(run.headRedactions),
			searchText: headSearchText(head),
			outcomePrefix: head.callback && !/[?&]code=/.test(head.callback.url) ? 'cancel' : '',
			outcomeEmpty: head.link ? 'link built' : 'empty',
			// Set when the run is first saved; saving it again never changes who owns it.
			owner,
			clientId: triage?.clientId ?? null,
			verdict: triage?.verdict ?? null,
			verdictWhat: triage?.verdictWhat ?? null
		});
		removeExchangesFrom.run(head.id, run.exchanges.length);
		run.exchanges.forEach((piece, seq) => {
			if (stored[seq] === piece) return;
			upsertExchange.run({
				runId: head.id,
				seq,
				exchangeJson: JSON.stringify(piece.exchange),
				redactionsJson: JSON.stringify({ named: piece.named, searched: piece.searched }),
				outcome: exchangeOutcome(piece.exchange),
				searchText: exchangeSearchText(piece.exchange)
			});
		});
	});

	return { write, headById, exchangesById, search, removeHead, removeExchangesFrom, clientsOf, untriaged, setTriage };
}

/** Writes a version 1 run in version 2's rows; false, having written nothing, for a run it cannot read. */
function convertStoredRun({ write }: Statements, json: string, updatedAt: string): boolean {
	const pieces = storedRunPieces(json);
	if (!pieces) return false;
	try {
		write(pieces, updatedAt, null, null); // its own savepoint: a failure leaves none of the run behind
		return true;
	} catch {
		return false;
	}
}

/**
 * Brings a database of an earlier version (user_version below SCHEMA_VERSION) to this one; the caller runs it in
 * one transaction. A version 1 run that cannot be read stays in `runs_v1` rather than being lost.
 */
function migrate(db: Database.Database, version: number, fromVersion1: boolean): Statements {
	if (version === 2 || version === 3) {
		db.exec((version === 2 ? OWNER_COLUMN : '') + TRIAGE_COLUMNS);
		db.pragma(`user_version = ${SCHEMA_VERSION}`);
		return prepareStatements(db);
	}
	if (fromVersion1) db.exec('ALTER TABLE runs RENAME TO runs_v1; DROP INDEX IF EXISTS runs_updated;');
	db.exec(SCHEMA + OWNER_COLUMN + TRIAGE_COLUMNS);
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

export function openRunStore(path: string): RunStore {
	const db = openCheckedDatabase(path, { what: "The explorer's saved runs database", freshStart: 'with no saved runs' });
	db.pragma('journal_mode = WAL');
	// As the sandbox's store: WAL with NORMAL survives a process crash (SIGKILL); only a power loss may drop the
	// last commits. FULL would wait for the disk at every walk step.
	db.pragma('synchronous = NORMAL');

	const hasTable = (name: string) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
	const version = db.pragma('user_version', { simple: true }) as number;
	let statements: Statements;
	try {
		// One transaction for the whole migration, version stamp included: interrupted, it leaves the file as it was.
		statements = version < SCHEMA_VERSION ? db.transaction(() => migrate(db, version, hasTable('runs')))() : prepareStatements(db);
	} catch (error) {
		db.close();
		throw error;
	}
	const { write, headById, exchangesById, search, removeHead, removeExchangesFrom, clientsOf, untriaged, setTriage } = statements;

	/** A stored exchange read by today's names; one this version cannot read (a newer explorer's) is a clear refusal, not a crash. */
	function readExchange(stored: ReturnType<typeof storedExchangeSchema>, json: string, id: string, n: number): RecordedExchange {
		const value = JSON.parse(json) as unknown;
		const read = stored.safeParse(value);
		if (read.success) return read.data;
		const step = typeof value === 'object' && value !== null && 'step' in value ? value.step : undefined;
		throw conflict(`The saved run "${id}" cannot be read by this version of the explorer: its exchange ${n} has the step ${JSON.stringify(step)}, not one of ${STEP_IDS.join(', ')}. It was most likely saved by a newer version; open it there, or save the flow again here.`);
	}

	function find(id: string): { run: Run; owner: string | null } | undefined {
		const head = headById.get(id) as { head_json: string; head_redactions: string; owner: string | null } | undefined;
		if (!head) return undefined;
		const rows = exchangesById.all(id) as { exchange_json: string; redactions_json: string }[];
		const runHead = JSON.parse(head.head_json) as Run;
		// Step names changed since some runs were saved: each exchange's step is read through today's names.
		const stored = storedExchangeSchema(runHead.source);
		const run = assembleRun({
			head: runHead,
			headRedactions: JSON.parse(head.head_redactions) as RedactedRun['headRedactions'],
			exchanges: rows.map((row, i) => ({ exchange: readExchange(stored, row.exchange_json, id, i + 1), ...(JSON.parse(row.redactions_json) as Omit<RedactedExchange, 'exchange'>) }))
		});
		return { run, owner: head.owner };
	}

	/** Triages runs saved before version 4 (or unreadable then), a bounded number at a time: each once. */
	function triageMissing(owner: string | null): void {
		for (const id of untriaged.all({ owner, limit: TRIAGED_PER_LIST }) as string[]) {
			setTriage.run({ id, ...readableTriage(id) });
		}
	}

	function readableTriage(id: string): RunTriage {
		try {
			const run = find(id)?.run;
			if (run) return triageOf(run);
		} catch {
			// a row this version cannot read: listed as such, and not tried again
		}
		return { clientId: null, verdict: 'warning', verdictWhat: 'This run could not be read; open it to see what is left of it.' };
	}

	/** Runs saved with added evidence (a few ids: one per run a person joined evidence to). */
	const withEvidence = new Set<string>();
	const written = new WrittenPieces();

	return {
		save(run, secrets, owner = null, { triage = 'at-save', verdict } = {}) {
			const redacted = redactRunInParts(run, secrets);
			// The triage is of the run as stored: what its page diagnoses.
			write(redacted, new Date().toISOString(), owner, triage === 'at-save' ? triageOf(assembleRun(redacted), verdict) : null, written.get(run.id));
			written.remember(run.id, redacted.exchanges);
			if (redacted.exchanges.some((piece) => piece.exchange.evidence)) withEvidence.add(redacted.head.id);
			return redacted;
		},
		get: (id) => find(id)?.run,
		find,
		list({ query = '', limit = 50, owner, verdict, client, source } = {}) {
			triageMissing(owner ?? null);
			const pattern = `%${query.toLowerCase().replace(LIKE_SPECIALS, (c) => `\\${c}`)}%`;
			const sources = source ? JSON.stringify(SOURCE_FILTERS[source]) : null;
			const rows = search.all({ pattern, limit, owner: owner ?? null, verdict: verdict ?? null, client: client ?? null, sources }) as (Omit<RunSummary, 'outcome'> & { prefix: string; empty: string; parts: string | null })[];
			return rows.map(({ prefix, empty, parts, ...summary }) => ({ ...summary, outcome: outcomeOf(prefix, parts, empty) }));
		},
		clients: (owner) => {
			triageMissing(owner);
			return clientsOf.all(owner) as string[];
		},
		hasAddedEvidence: (id) => withEvidence.has(id),
		remove: (id) => {
			withEvidence.delete(id);
			written.forget(id);
			return db.transaction(() => {
				removeExchangesFrom.run(id, 0);
				return removeHead.run(id).changes === 1;
			})();
		},
		close: () => db.close()
	};
}
