/**
 * Saved runs, in SQLite beside the sandbox's database. A run is redacted before it is stored (the caller passes
 * what it knows to be secret; the redaction also finds credentials by name), so the database never holds a client
 * secret, an access token or a refresh token. Each exchange is stored on its own row (see SCHEMA_VERSION).
 */
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
import { setRecent } from '$lib/recent';
import { WrittenPieces } from './written-pieces';
import { checkOwnerLimits, checkStoreLimit, checkVisitorLimits, RUN_LIMITS, VISITOR_WINDOW_MS, type OwnerLimitValues, type OwnerUsage } from './run-limits';
import { migrate, prepareStatements, SCHEMA_VERSION, type SaveLimits, type Statements } from './store-sql';

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
	/**
	 * The address the save comes from, as `runSaver` (runs/access.ts) digests it: the runs it first saves count
	 * against its limits for a day (run-limits.ts).
	 */
	visitor?: string | null;
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
	/** Who owns the run, as `find` says, without reading the run; undefined when there is none. */
	ownerOf(id: string): { owner: string | null } | undefined;
	/** `owner`: only that owner's runs (the /runs page always passes it); every run without it. */
	list(options?: { query?: string; limit?: number; owner?: string } & RunFilters): RunSummary[];
	/** The clients of the owner's runs, for the list's filter. */
	clients(owner: string): string[];
	remove(id: string): boolean;
	/** What the owner's runs take, against the limits of run-limits.ts. */
	usage(owner: string): OwnerUsage;
	/** What the visitor (runSaver's digest) first saved in the last VISITOR_WINDOW_MS, against the per-visitor limits. */
	visitorUsage(visitor: string): OwnerUsage;
	/**
	 * Whether a run saved since this store opened holds evidence added on its page (support/join.ts): a walk's
	 * next save must keep it. Known in memory only, as the walks that could drop it are.
	 */
	hasAddedEvidence(id: string): boolean;
	close(): void;
}

/** Runs of an owner triaged at most per list request: an old database's first list stays quick. */
const TRIAGED_PER_LIST = 200;

/** The outcome a summary shows: "cancel" first for a callback without a code, then each exchange's part. */
function outcomeOf(prefix: string, parts: string | null, empty: string): string {
	return [prefix, parts ?? ''].filter((p) => p !== '').join(', ') || empty;
}

const LIKE_SPECIALS = /[\\%_]/g;

/** Owners whose usage is known in memory; one not known (or forgotten) is counted again from the table. */
const REMEMBERED_OWNERS = 10_000;
const REMEMBERED_DELETIONS = 10_000;

/**
 * `maxMb`: SAVED_RUNS_MAX_MB, what the whole store may take (run-limits.ts); no limit when absent. `perOwner`: what
 * each owner may keep, RUN_LIMITS unless a test lowers them.
 */
export function openRunStore(path: string, { maxMb = Infinity, perOwner = RUN_LIMITS }: { maxMb?: number; perOwner?: OwnerLimitValues } = {}): RunStore {
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
	const { write, headById, exchangesById, search, removeHead, removeExchangesFrom, clientsOf, untriaged, setTriage, sizeById, usageOf, usageOfVisitor } = statements;

	/**
	 * Each owner's usage, kept in step with every save of theirs so a walk's step does not count their runs again.
	 * Invalidation: a committed save replaces the owner's entry, a removal drops it; a refused save changes none.
	 * A visitor's is a sliding day's, so it is counted from the table at each save: an index range over that day.
	 */
	const usages = new Map<string, OwnerUsage>();
	/** Saves made after this count against their visitor: the sliding day of run-limits.ts. */
	const visitorDayStart = () => Date.now() - VISITOR_WINDOW_MS;
	const usage = (owner: string): OwnerUsage => usages.get(owner) ?? usageOf.get(owner)!;
	/** The usage a save in progress has checked; kept once the save commits. */
	const checked: { owner: string; usage: OwnerUsage }[] = [];
	const limits: SaveLimits = ({ owner, visitor, visitorMs }, added) => {
		// Called once the save is written (and not yet committed): the table already holds it.
		if (owner !== null) {
			const known = usages.get(owner);
			const after = known ? { runs: known.runs + added.runs, bytes: known.bytes + added.bytes } : usageOf.get(owner)!;
			const before = known ?? { runs: after.runs - added.runs, bytes: after.bytes - added.bytes };
			checkOwnerLimits(before, after, perOwner);
			checked.push({ owner, usage: after });
		}
		// A save that adds nothing (a walk's step saving its run unchanged) needs no count. A run first saved over a day
		// ago no longer counts against its visitor, nor does what it grows by.
		const since = visitorDayStart();
		if ((added.runs > 0 || added.bytes > 0) && visitor !== null && visitorMs !== null && visitorMs > since) {
			const after = usageOfVisitor.get(visitor, since)!;
			checkVisitorLimits({ runs: after.runs - added.runs, bytes: after.bytes - added.bytes }, after, perOwner);
		}
	};
	const maxBytes = maxMb * 1024 * 1024;
	// Prepared once: a walk saves at every step.
	const pageCount = db.prepare<[], number>('PRAGMA page_count').pluck();
	const freePages = db.prepare<[], number>('PRAGMA freelist_count').pluck();
	const pageSize = db.pragma('page_size', { simple: true }) as number;
	const usedBytes = () => (pageCount.get()! - freePages.get()!) * pageSize;

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
	/**
	 * Runs removed since this store opened: none is saved again under its id (a walk that goes on after its run was
	 * deleted). The newest REMEMBERED_DELETIONS: a walk's session lasts hours, not thousands of deletions.
	 */
	const deleted = new Map<string, true>();
	const written = new WrittenPieces();

	return {
		save(run, secrets, owner = null, { triage = 'at-save', verdict, visitor = null } = {}) {
			// A walk deleted on its run page would otherwise be saved again, whole, by its next step.
			if (deleted.has(run.id)) throw conflict('This run was deleted on its page, so it is no longer saved. Start a new walk to save one again.');
			checkStoreLimit(usedBytes(), maxBytes);
			const redacted = redactRunInParts(run, secrets);
			// The triage is of the run as stored: what its page diagnoses.
			checked.length = 0;
			write(redacted, new Date().toISOString(), { owner, visitor }, triage === 'at-save' ? triageOf(assembleRun(redacted), verdict) : null, written.get(run.id), limits);
			for (const { owner: counted, usage: after } of checked.splice(0)) setRecent(usages, counted, after, REMEMBERED_OWNERS);
			written.remember(run.id, redacted.exchanges);
			if (redacted.exchanges.some((piece) => piece.exchange.evidence)) withEvidence.add(redacted.head.id);
			return redacted;
		},
		get: (id) => find(id)?.run,
		find,
		ownerOf: (id) => {
			const row = sizeById.get(id);
			return row && { owner: row.owner };
		},
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
			// The owner's usage is counted again from the table when next needed.
			const owner = sizeById.get(id)?.owner;
			if (owner) usages.delete(owner);
			const removed = db.transaction(() => {
				removeExchangesFrom.run(id, 0);
				return removeHead.run(id).changes === 1;
			})();
			if (removed) setRecent(deleted, id, true, REMEMBERED_DELETIONS);
			return removed;
		},
		usage,
		visitorUsage: (visitor) => usageOfVisitor.get(visitor, visitorDayStart())!,
		close: () => db.close()
	};
}
