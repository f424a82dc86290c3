/**
 * Saved runs, in SQLite beside the sandbox's database. A run is redacted before it is stored (the caller passes
 * what it knows to be secret; `redactRun` also finds credentials by name), so the database never holds a client
 * secret, an access token or a refresh token.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Run } from '$lib/support/run';
import { redactRun, type KnownSecrets, type RunRedactor } from '$lib/support/redact';

export interface RunSummary {
	id: string;
	title: string;
	createdAt: string;
	updatedAt: string;
	source: Run['source'];
	targetKind: Run['target']['kind'];
	/** e.g. "200 token, 403 me.json" */
	outcome: string;
}

export interface RunStore {
	/** Redacts with `redact` (`redactRun` unless the caller has a faster equivalent), then stores. */
	save(run: Run, secrets: KnownSecrets, redact?: RunRedactor): Run;
	get(id: string): Run | undefined;
	list(options?: { query?: string; limit?: number }): RunSummary[];
	remove(id: string): boolean;
	close(): void;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS runs (
	id TEXT PRIMARY KEY,
	title TEXT NOT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	source TEXT NOT NULL,
	target_kind TEXT NOT NULL,
	outcome TEXT NOT NULL,
	search_text TEXT NOT NULL,
	run_json TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_updated ON runs (updated_at DESC);
`;

function outcomeOf(run: Run): string {
	const parts = run.exchanges
		.filter((e) => e.step === 'token' || e.step === 'me')
		.map((e) => `${e.response ? e.response.status : (e.failure?.kind ?? 'no response')} ${e.step === 'me' ? 'me.json' : 'token'}`);
	if (run.callback && !/[?&]code=/.test(run.callback.url)) parts.unshift('cancel');
	return parts.join(', ') || (run.link ? 'link built' : 'empty');
}

/** What a search matches: title, URLs, statuses, error codes and messages of the run. */
function searchTextOf(run: Run): string {
	const texts = [run.title, run.link ?? '', run.callback?.url ?? '', run.target.authUrl, run.target.accountsUrl];
	for (const e of run.exchanges) texts.push(e.label, e.request.url, String(e.response?.status ?? ''), e.response?.body.slice(0, 2000) ?? '', e.failure?.message ?? '');
	return texts.join('\n').toLowerCase();
}

const LIKE_SPECIALS = /[\\%_]/g;

export function openRunStore(path: string): RunStore {
	if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
	const db = new Database(path);
	db.pragma('journal_mode = WAL');
	// As the sandbox's store: WAL with NORMAL survives a process crash (SIGKILL); only a power loss may drop the
	// last commits. FULL would wait for the disk at every walk step.
	db.pragma('synchronous = NORMAL');
	db.exec(SCHEMA);
	const upsert = db.prepare(`
		INSERT INTO runs (id, title, created_at, updated_at, source, target_kind, outcome, search_text, run_json)
		VALUES (@id, @title, @createdAt, @updatedAt, @source, @targetKind, @outcome, @searchText, @json)
		ON CONFLICT (id) DO UPDATE SET title = excluded.title, updated_at = excluded.updated_at, outcome = excluded.outcome,
			search_text = excluded.search_text, run_json = excluded.run_json, target_kind = excluded.target_kind`);
	const byId = db.prepare('SELECT run_json FROM runs WHERE id = ?');
	const search = db.prepare(`
		SELECT id, title, created_at AS createdAt, updated_at AS updatedAt, source, target_kind AS targetKind, outcome
		FROM runs WHERE search_text LIKE @pattern ESCAPE '\\' OR title LIKE @pattern ESCAPE '\\'
		ORDER BY updated_at DESC, rowid DESC LIMIT @limit`);
	const remove = db.prepare('DELETE FROM runs WHERE id = ?');

	return {
		save(run, secrets, redact = redactRun) {
			const redacted = redact(run, secrets);
			upsert.run({
				id: redacted.id,
				title: redacted.title,
				createdAt: redacted.createdAt,
				updatedAt: new Date().toISOString(),
				source: redacted.source,
				targetKind: redacted.target.kind,
				outcome: outcomeOf(redacted),
				searchText: searchTextOf(redacted),
				json: JSON.stringify(redacted)
			});
			return redacted;
		},
		get(id) {
			const row = byId.get(id) as { run_json: string } | undefined;
			return row ? (JSON.parse(row.run_json) as Run) : undefined;
		},
		list({ query = '', limit = 50 } = {}) {
			const pattern = `%${query.toLowerCase().replace(LIKE_SPECIALS, (c) => `\\${c}`)}%`;
			return search.all({ pattern, limit }) as RunSummary[];
		},
		remove: (id) => remove.run(id).changes === 1,
		close: () => db.close()
	};
}
