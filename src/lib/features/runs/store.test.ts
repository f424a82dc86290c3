import { afterEach, describe, expect, it, vi } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRunStore } from './store';
import { SCHEMA_VERSION } from './store-sql';
import type { RecordedExchange } from '$lib/flow/exchange';
import type { Run } from '$lib/features/runs/pure/run';
import { assembleRun, redactRun } from '$lib/features/runs/pure/redact/redact';
import { harToRun, runToHar } from '$lib/features/runs/pure/har/har';
import { run as testRun } from '$lib/features/runs/pure/test-helpers';
import { triageOf } from '$lib/features/runs/pure/triage';
import { flowVerdict } from '$lib/flow/verdict';
import { diagnoseRun } from '$lib/features/runs/pure/diagnose-run';

const SECRET = 'a-very-secret-client-secret';
const TOKEN = 'AccessTokenValue0123456789abcdef';

function run(overrides: Partial<Run> = {}): Run {
	return testRun({
		title: 'Walk against the sandbox',
		createdAt: '2026-11-22T10:00:00.000Z',
		target: { kind: 'sandbox', authUrl: 'http://localhost:3001', accountsUrl: 'http://localhost:3002' },
		link: 'http://localhost:3001/sso/student?response_type=code&client_id=demo-client&redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Fcallback&country=uk',
		callback: { url: 'http://localhost:3000/callback?code=abc', receivedAt: '2026-11-22T10:00:05.000Z' },
		exchanges: [
			{
				id: 'x1',
				step: 'token',
				label: 'exchange the code (query)',
				startedAt: '2026-11-22T10:00:06.000Z',
				durationMs: 12,
				request: {
					method: 'POST',
					url: `http://localhost:3002/oauth/token?grant_type=authorization_code&code=abc&client_id=demo-client&client_secret=${SECRET}`,
					headers: [],
					body: null
				},
				response: {
					status: 200,
					statusText: 'OK',
					headers: [{ name: 'Content-Type', value: 'application/json' }],
					body: JSON.stringify({ access_token: TOKEN, token_type: 'Bearer', expires_in: 2419199, refresh_token: 'RefreshTokenValue0123456789', created_at: 1 }),
					truncated: false
				},
				failure: null,
				masked: []
			}
		],
		...overrides
	});
}

describe('run store', () => {
	it('stores a run redacted and gives it back by id', () => {
		const store = openRunStore(':memory:');
		store.save(run(), { clientSecrets: [SECRET], tokens: [TOKEN] });
		const stored = store.get('run-1')!;
		const text = JSON.stringify(stored);
		expect(text).not.toContain(SECRET);
		expect(text).not.toContain(TOKEN);
		expect(stored.redactions.length).toBeGreaterThan(0);
		expect(stored.exchanges[0]!.response!.status).toBe(200);
	});

	it('lists runs newest first with their outcome, and searches them', () => {
		const store = openRunStore(':memory:');
		store.save(run(), {});
		store.save(run({ id: 'run-2', title: 'Customer ticket 4711', exchanges: [] }), {});
		expect(store.list().map((r) => r.id)).toEqual(['run-2', 'run-1']);
		expect(store.list({ query: '4711' }).map((r) => r.id)).toEqual(['run-2']);
		expect(store.list({ query: 'oauth/token' }).map((r) => r.id)).toEqual(['run-1']);
		expect(store.list({ query: '100%' })).toEqual([]);
		expect(store.list().find((r) => r.id === 'run-1')!.outcome).toBe('200 token');
	});

	it('redacts as thoroughly as redactRun', () => {
		const store = openRunStore(':memory:');
		const secrets = { clientSecrets: [SECRET], tokens: [TOKEN] };
		const saved = assembleRun(store.save(run(), secrets));
		expect(saved).toEqual(redactRun(run(), secrets));
		expect(store.get('run-1')).toEqual(saved);
	});

	it('replaces a run saved again under the same id', () => {
		const store = openRunStore(':memory:');
		store.save(run(), {});
		store.save(run({ title: 'Renamed' }), {});
		expect(store.list()).toHaveLength(1);
		expect(store.get('run-1')!.title).toBe('Renamed');
	});

	it('answers undefined for an unknown id', () => {
		expect(openRunStore(':memory:').get('nope')).toBeUndefined();
	});
});

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function dbPath(): string {
	const dir = mkdtempSync(join(tmpdir(), 'runs-test-'));
	dirs.push(dir);
	return join(dir, 'explorer.db');
}

const tokenExchange = run().exchanges[0]!;
/** A me.json read with its own id; `note` ends up in its response body. */
function meRead(n: number, note = ''): RecordedExchange {
	return {
		...tokenExchange,
		id: `me-${n}`,
		step: 'me',
		label: `read me.json ${n}`,
		request: { method: 'GET', url: 'http://localhost:3002/api/v3/me.json', headers: [{ name: 'Authorization', value: `Bearer ${TOKEN}` }], body: null },
		response: { status: 200, statusText: 'OK', headers: [], body: `{"sbid_number":"STU${n}"${note ? `,"note":"${note}"` : ''}}`, truncated: false }
	};
}

/** Counts the rows the store writes to run_exchanges, from a second connection's trigger. */
function countWrites(path: string) {
	const spy = new Database(path);
	spy.exec(`CREATE TABLE writes (seq INTEGER);
		CREATE TRIGGER count_writes AFTER INSERT ON run_exchanges BEGIN INSERT INTO writes VALUES (NEW.seq); END;
		CREATE TRIGGER count_rewrites AFTER UPDATE ON run_exchanges BEGIN INSERT INTO writes VALUES (NEW.seq); END;`);
	return {
		take: () => (spy.prepare('DELETE FROM writes RETURNING seq').all() as { seq: number }[]).map((r) => r.seq).sort((a, b) => a - b),
		close: () => spy.close()
	};
}

describe('run store: runs saved before the step names changed', () => {
	it("reads a row's old `authorise` as a live run's sign-in page, and as an arrival where a HAR added it", () => {
		const path = dbPath();
		const before = openRunStore(path);
		const signIn: RecordedExchange = { ...tokenExchange, id: 'p.1', step: 'sign-in', label: 'sign-in: consent', request: { method: 'POST', url: 'http://localhost:3001/flow/f1/consent', headers: [], body: null } };
		const arrival: RecordedExchange = { ...tokenExchange, id: 'har-2', step: 'arrival', label: 'from the HAR', request: { method: 'GET', url: 'http://localhost:3000/callback?code=abc', headers: [], body: null }, evidence: { source: 'har', timed: true, matchedBy: 'code' } };
		before.save(run({ source: 'live', exchanges: [signIn, arrival, tokenExchange] }), {});
		before.close();
		const db = new Database(path);
		db.exec(`UPDATE run_exchanges SET exchange_json = replace(replace(exchange_json, '"step":"sign-in"', '"step":"authorise"'), '"step":"arrival"', '"step":"authorise"')`);
		expect(db.prepare("SELECT count(*) FROM run_exchanges WHERE exchange_json LIKE '%\"step\":\"authorise\"%'").pluck().get()).toBe(2);
		db.close();
		const store = openRunStore(path);
		expect(store.get('run-1')?.exchanges.map((e) => e.step)).toEqual(['sign-in', 'arrival', 'token']);
		store.close();
	});

	it('refuses a run with a step this version does not know (a newer explorer saved it) with a 409 that says so, not a crash', () => {
		const path = dbPath();
		const before = openRunStore(path);
		before.save(run({ exchanges: [tokenExchange] }), {});
		before.close();
		const db = new Database(path);
		db.exec(`UPDATE run_exchanges SET exchange_json = replace(exchange_json, '"step":"token"', '"step":"refresh"')`);
		db.close();
		const store = openRunStore(path);
		expect(() => store.get('run-1')).toThrow(expect.objectContaining({ status: 409, message: expect.stringMatching(/exchange 1 has the step "refresh".*newer version/) }));
		store.close();
	});
});

describe('run store: owners', () => {
	it("lists an owner only their own runs, and finds any run by id with its owner", () => {
		const store = openRunStore(':memory:');
		store.save(run({ id: 'alice-1' }), {}, 'alice');
		store.save(run({ id: 'bob-1' }), {}, 'bob');
		store.save(run({ id: 'nobody-1' }), {});
		expect(store.list({ owner: 'alice' }).map((r) => r.id)).toEqual(['alice-1']);
		expect(store.list({ owner: 'bob', query: 'oauth/token' }).map((r) => r.id)).toEqual(['bob-1']);
		expect(store.list({ owner: 'carol' })).toEqual([]);
		expect(store.find('alice-1')?.owner).toBe('alice');
		expect(store.find('nobody-1')?.owner).toBeNull();
		expect(store.find('bob-1')?.run).toEqual(store.get('bob-1'));
	});

	it('keeps the first owner when a run is saved again', () => {
		const store = openRunStore(':memory:');
		store.save(run(), {}, 'alice');
		store.save(run({ title: 'Renamed' }), {}, 'mallory');
		expect(store.find('run-1')?.owner).toBe('alice');
		expect(store.list({ owner: 'mallory' })).toEqual([]);
	});

	it('gives the runs of a version 2 database no owner: kept, found by id, listed to nobody', () => {
		const path = dbPath();
		const before = openRunStore(path);
		before.save(run(), {}, 'alice');
		before.close();
		const db = new Database(path);
		db.exec(`DROP INDEX runs_owner_updated; ALTER TABLE runs DROP COLUMN owner; ${VERSION_4_COLUMNS} ${VERSION_5_COLUMNS} ${VERSION_6_COLUMNS}`);
		db.pragma('user_version = 2');
		db.close();
		const store = openRunStore(path);
		expect(store.find('run-1')?.owner).toBeNull();
		expect(store.get('run-1')?.exchanges).toHaveLength(1);
		expect(store.list({ owner: 'alice' })).toEqual([]);
		store.save(run({ id: 'run-2' }), {}, 'alice');
		expect(store.list({ owner: 'alice' }).map((r) => r.id)).toEqual(['run-2']);
		store.close();
	});
});

/** The list's triage of a run, as its run page diagnoses it. */
const triaged = (stored: Run) => {
	const { clientId, verdict, verdictWhat } = triageOf(stored);
	return { clientId, verdict, verdictWhat };
};

/** What each version added, dropped from one of today's databases to make one of the version before. */
const VERSION_4_COLUMNS = 'ALTER TABLE runs DROP COLUMN client_id; ALTER TABLE runs DROP COLUMN verdict; ALTER TABLE runs DROP COLUMN verdict_what;';
const VERSION_5_COLUMNS = 'ALTER TABLE runs DROP COLUMN stored_bytes; ALTER TABLE run_exchanges DROP COLUMN bytes;';
const VERSION_6_COLUMNS = 'DROP INDEX runs_visitor; ALTER TABLE runs DROP COLUMN visitor; ALTER TABLE runs DROP COLUMN visitor_ms;';

describe('run store: what the list triages by', () => {
	/** The walk with its token exchange repeating the link's redirect_uri, then me.json read: nothing wrong. */
	const succeeded = (id = 'run-1', source: Run['source'] = 'walk'): Run => {
		const base = run({ id, source });
		const token = base.exchanges[0]!;
		const read = meRead(1);
		const me = { ...read, request: { ...read.request, headers: [...read.request.headers, { name: 'User-Agent', value: 'shop/1.0' }] } };
		return { ...base, exchanges: [{ ...token, request: { ...token.request, url: `${token.request.url}&redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Fcallback` } }, me] };
	};
	const failedToken = (id: string, source: Run['source'] = 'walk'): Run => {
		const base = succeeded(id, source);
		return { ...base, exchanges: [{ ...base.exchanges[0]!, response: { ...base.exchanges[0]!.response!, status: 400, body: '{"error":"invalid_grant"}' } }] };
	};

	it('stores the client and the verdict the run page shows when a run is saved', () => {
		const store = openRunStore(':memory:');
		store.save(succeeded(), {}, 'alice');
		store.save(failedToken('run-2'), {}, 'alice');
		const byId = Object.fromEntries(store.list({ owner: 'alice' }).map((r) => [r.id, r]));
		expect(byId['run-1']).toMatchObject({ clientId: 'demo-client', verdict: 'success' });
		expect(byId['run-2']).toMatchObject({ clientId: 'demo-client', verdict: 'error' });
		expect(byId['run-2']!.verdictWhat).toMatch(/^The token exchange \(exchange 1\) failed/);
		expect(store.clients('alice')).toEqual(['demo-client']);
	});

	it('takes the verdict its caller worked out from the same run (an import titles its run by it) instead of diagnosing again', () => {
		const store = openRunStore(':memory:');
		const given = { ...flowVerdict(failedToken('run-1'), diagnoseRun(failedToken('run-1'))), what: 'The verdict the import gave.' };
		store.save(failedToken('run-1'), {}, 'alice', { verdict: given });
		expect(store.list({ owner: 'alice' })).toMatchObject([{ id: 'run-1', verdict: 'error', verdictWhat: 'The verdict the import gave.' }]);
	});

	it('stores the verdict of a run as last saved: a walk saved again is triaged again', () => {
		const store = openRunStore(':memory:');
		store.save(failedToken('run-1'), {}, 'alice');
		expect(store.list({ owner: 'alice' })).toMatchObject([{ id: 'run-1', verdict: 'error' }]);
		store.save(succeeded('run-1'), {}, 'alice');
		expect(store.list({ owner: 'alice' })).toMatchObject([{ id: 'run-1', verdict: 'success' }]);
		expect(store.list({ owner: 'alice', verdict: 'error' })).toEqual([]);
	});

	it('triages a run saved with its triage left for the list (a walk, at every step) when the list shows it, as last saved', () => {
		const path = dbPath();
		const store = openRunStore(path);
		const verdictStored = () => new Database(path, { readonly: true }).prepare("SELECT verdict FROM runs WHERE id = 'run-1'").pluck().get();
		store.save(succeeded('run-1'), {}, 'alice', { triage: 'when-listed' });
		expect(verdictStored()).toBeNull();
		expect(store.list({ owner: 'alice', verdict: 'success' })).toMatchObject([{ id: 'run-1', clientId: 'demo-client', verdict: 'success' }]);
		// Saved again, its earlier triage goes: the list works out the new one.
		store.save(failedToken('run-1'), {}, 'alice', { triage: 'when-listed' });
		expect(verdictStored()).toBeNull();
		expect(store.list({ owner: 'alice' })).toMatchObject([{ id: 'run-1', verdict: 'error' }]);
		store.close();
	});

	it('filters by verdict, client and source (an import being any of HAR, curl and raw HTTP)', () => {
		const store = openRunStore(':memory:');
		store.save(succeeded(), {}, 'alice');
		store.save(failedToken('run-2', 'har'), {}, 'alice');
		store.save(failedToken('run-3', 'curl'), {}, 'alice');
		store.save({ ...succeeded('run-4'), link: run().link!.replace('demo-client', 'other-client') }, {}, 'alice');
		const ids = (filters: Parameters<typeof store.list>[0]) => store.list({ owner: 'alice', ...filters }).map((r) => r.id).sort();
		expect(ids({ verdict: 'error' })).toEqual(['run-2', 'run-3']);
		expect(ids({ source: 'import' })).toEqual(['run-2', 'run-3']);
		expect(ids({ source: 'walk', client: 'other-client' })).toEqual(['run-4']);
		expect(ids({ verdict: 'success', source: 'import' })).toEqual([]);
	});

	it('triages a version 3 database\'s runs once, when their owner\'s list first shows them', () => {
		const path = dbPath();
		const before = openRunStore(path);
		before.save(failedToken('run-1'), {}, 'alice');
		before.close();
		const db = new Database(path);
		db.exec(VERSION_4_COLUMNS + VERSION_5_COLUMNS + VERSION_6_COLUMNS);
		db.pragma('user_version = 3');
		db.close();
		const store = openRunStore(path);
		const untriaged = () => new Database(path, { readonly: true }).prepare('SELECT count(*) FROM runs WHERE verdict IS NULL').pluck().get();
		expect(untriaged()).toBe(1);
		expect(store.list({ owner: 'alice', verdict: 'error' })).toMatchObject([{ id: 'run-1', clientId: 'demo-client', verdict: 'error' }]);
		expect(untriaged()).toBe(0);
		store.close();
	});
});

describe('run store: a damaged file', () => {
	it('refuses an emptied (0-byte) explorer.db, naming it, instead of starting with no runs', () => {
		const path = dbPath();
		openRunStore(path).close();
		writeFileSync(path, '');
		expect(() => openRunStore(path)).toThrow(`The explorer's saved runs database ${path} cannot be used: the file is empty (0 bytes)`);
	});
});

describe('run store: a walk saved after each step', () => {
	it('reads back what redactRun gives at every step of a growing run', () => {
		const store = openRunStore(':memory:');
		const secrets = { clientSecrets: [SECRET], tokens: [TOKEN] };
		const exchanges = [tokenExchange, meRead(1), meRead(2), meRead(3)];
		for (let n = 1; n <= exchanges.length; n++) {
			const grown = run({ exchanges: exchanges.slice(0, n) });
			store.save(grown, secrets);
			expect(store.get('run-1')).toEqual(redactRun(grown, secrets));
		}
		store.close();
	});

	it('writes an earlier exchange again when a later step changes its redaction (a token it holds is learnt later)', () => {
		const path = dbPath();
		const store = openRunStore(path);
		const writes = countWrites(path);
		const early = { ...meRead(1, TOKEN), request: { ...meRead(1).request, headers: [] } };
		store.save(run({ exchanges: [early] }), {});
		expect(JSON.stringify(store.get('run-1'))).toContain(TOKEN);
		writes.take();
		const grown = run({ exchanges: [early, tokenExchange] });
		store.save(grown, {});
		expect(writes.take()).toEqual([0, 1]);
		expect(JSON.stringify(store.get('run-1'))).not.toContain(TOKEN);
		expect(store.get('run-1')).toEqual(redactRun(grown, {}));
		writes.close();
		store.close();
	});

	it('writes only the new exchange when a walk grows by one and nothing earlier changed', () => {
		const path = dbPath();
		const store = openRunStore(path);
		const writes = countWrites(path);
		const secrets = { clientSecrets: [SECRET], tokens: [TOKEN] };
		store.save(run({ exchanges: [tokenExchange, meRead(1)] }), secrets);
		expect(writes.take()).toEqual([0, 1]);
		const grown = run({ exchanges: [tokenExchange, meRead(1), meRead(2)] });
		store.save(grown, secrets);
		expect(writes.take()).toEqual([2]);
		expect(store.get('run-1')).toEqual(redactRun(grown, secrets));
		writes.close();
		store.close();
	});

	it('refuses to save a removed run again (a walk that goes on after its run was deleted), with a 409 that says so', () => {
		const store = openRunStore(':memory:');
		const walked = run({ exchanges: [tokenExchange, meRead(1)] });
		store.save(walked, {});
		expect(store.remove('run-1')).toBe(true);
		expect(() => store.save(run({ exchanges: [tokenExchange, meRead(1), meRead(2)] }), {})).toThrow(/was deleted on its page/);
		expect(store.get('run-1')).toBeUndefined();
		store.close();
	});

	it('drops the exchanges a run no longer has (a new callback clears them under the same run id)', () => {
		const store = openRunStore(':memory:');
		store.save(run({ exchanges: [tokenExchange, meRead(1), meRead(2)] }), {});
		const restarted = run({ exchanges: [meRead(3)] });
		store.save(restarted, {});
		expect(store.get('run-1')).toEqual(redactRun(restarted, {}));
		expect(store.list()[0]!.outcome).toBe('200 me.json');
	});

	it('a store opened afresh on the same file rewrites a run saved again whole, not only its new exchanges', () => {
		const path = dbPath();
		openRunStore(path).save(run({ exchanges: [tokenExchange, meRead(1)] }), {});
		const reopened = openRunStore(path);
		const shorter = run({ title: 'Again', exchanges: [meRead(2)] });
		reopened.save(shorter, {});
		expect(reopened.get('run-1')).toEqual(redactRun(shorter, {}));
	});

	it('finds a run by the text of any of its exchanges, and lists its outcome in order', () => {
		const store = openRunStore(':memory:');
		store.save(run({ exchanges: [tokenExchange, meRead(1), { ...meRead(2), response: { ...meRead(2).response!, status: 403, body: '{"error":"forbidden_xyz"}' } }] }), {});
		store.save(run({ id: 'cancelled', callback: { url: 'http://localhost:3000/callback?error=x', receivedAt: '2026-11-22T10:00:05.000Z' }, exchanges: [] }), {});
		store.save(run({ id: 'bare', link: null, callback: null, exchanges: [] }), {});
		store.save(run({ id: 'arrived', callback: { url: 'http://localhost:3000/callback?code=c-1', receivedAt: '2026-11-22T10:00:05.000Z' }, exchanges: [] }), {});
		const refusedLink = { ...tokenExchange, id: 'link-1', step: 'link' as const, request: { method: 'GET', url: 'http://localhost:3001/sso/student?client_id=x', headers: [], body: null }, response: { ...tokenExchange.response!, status: 400, body: 'The redirect URI included is not valid' } };
		store.save(run({ id: 'refused', callback: null, exchanges: [refusedLink] }), {});
		expect(store.list({ query: 'FORBIDDEN_xyz' }).map((r) => r.id)).toEqual(['run-1']);
		expect(Object.fromEntries(store.list().map((r) => [r.id, r.outcome]))).toEqual({
			'run-1': '200 token, 200 me.json, 403 me.json',
			cancelled: 'cancel',
			bare: 'empty',
			arrived: 'code received',
			refused: 'link 400'
		});
		expect(store.remove('run-1')).toBe(true);
		expect(store.get('run-1')).toBeUndefined();
		expect(store.list({ query: 'forbidden_xyz' })).toEqual([]);
	});
});

/** The schema before runs were stored an exchange per row (user_version 0), as that version wrote it. */
const VERSION_1_SCHEMA = `
CREATE TABLE IF NOT EXISTS runs (
	id TEXT PRIMARY KEY, title TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, source TEXT NOT NULL,
	target_kind TEXT NOT NULL, outcome TEXT NOT NULL, search_text TEXT NOT NULL, run_json TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_updated ON runs (updated_at DESC);`;

describe('run store: a database of the first version', () => {
	const cancelled = run({ id: 'old-cancel', title: 'Cancelled', callback: { url: 'http://localhost:3000/callback?error=access_denied', receivedAt: '2026-11-22T09:00:05.000Z' }, exchanges: [] });
	const walked = run({ id: 'old-walk', exchanges: [tokenExchange, meRead(1)] });
	const secrets = { clientSecrets: [SECRET], tokens: [TOKEN] };
	const stored = [redactRun(cancelled, secrets), redactRun(walked, secrets)];

	function versionOneDatabase(): string {
		const path = dbPath();
		const db = new Database(path);
		db.pragma('journal_mode = WAL');
		db.exec(VERSION_1_SCHEMA);
		const insert = db.prepare('INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
		// Both updated at the same moment: the list's tie-break (the older insert last) must survive the migration.
		insert.run('old-cancel', 'Cancelled', cancelled.createdAt, '2026-11-22T11:00:00.000Z', 'walk', 'sandbox', 'cancel', 'cancelled\nhttp://localhost:3000/callback?error=access_denied', JSON.stringify(stored[0]));
		insert.run('old-walk', walked.title, walked.createdAt, '2026-11-22T11:00:00.000Z', 'walk', 'sandbox', '200 token, 200 me.json', 'walk against the sandbox\nsbid', JSON.stringify(stored[1]));
		db.close();
		return path;
	}

	it('opens its runs exactly as they were stored, lists and finds them as before', () => {
		const store = openRunStore(versionOneDatabase());
		expect(JSON.stringify(store.get('old-cancel'))).toBe(JSON.stringify(stored[0]));
		expect(JSON.stringify(store.get('old-walk'))).toBe(JSON.stringify(stored[1]));
		expect(store.list()).toEqual([
			{ id: 'old-walk', title: walked.title, createdAt: walked.createdAt, updatedAt: '2026-11-22T11:00:00.000Z', source: 'walk', targetKind: 'sandbox', outcome: '200 token, 200 me.json', ...triaged(store.get('old-walk')!) },
			{ id: 'old-cancel', title: 'Cancelled', createdAt: cancelled.createdAt, updatedAt: '2026-11-22T11:00:00.000Z', source: 'walk', targetKind: 'sandbox', outcome: 'cancel', ...triaged(store.get('old-cancel')!) }
		]);
		expect(store.list({ query: 'STU1' }).map((r) => r.id)).toEqual(['old-walk']);
		expect(store.list({ query: 'access_denied' }).map((r) => r.id)).toEqual(['old-cancel']);
	});

	it('exports and imports its runs as before', () => {
		const store = openRunStore(versionOneDatabase());
		const migrated = store.get('old-walk')!;
		expect(JSON.stringify(runToHar(migrated))).toBe(JSON.stringify(runToHar(stored[1]!)));
		const options = { id: 'imported', now: new Date('2026-11-23T00:00:00.000Z') };
		const imported = harToRun(JSON.stringify(runToHar(migrated)), options);
		expect(imported).toEqual(harToRun(JSON.stringify(runToHar(stored[1]!)), options));
		expect(imported.ok && assembleRun(store.save(imported.run, {}))).toEqual(imported.ok && imported.run);
	});

	it('is converted once: reopened, it keeps its runs, and new runs are stored beside them', () => {
		const path = versionOneDatabase();
		openRunStore(path).close();
		const reopened = openRunStore(path);
		reopened.save(run({ id: 'new-run' }), {});
		expect(reopened.list().map((r) => r.id).sort()).toEqual(['new-run', 'old-cancel', 'old-walk']);
		expect(JSON.stringify(reopened.get('old-walk'))).toBe(JSON.stringify(stored[1]));
		reopened.close();
		const db = new Database(path);
		expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
		expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all()).toEqual([{ name: 'run_exchanges' }, { name: 'runs' }]);
		db.close();
	});

	it('is converted in one transaction: interrupted, the file is the first version still, and converts when reopened', () => {
		const path = versionOneDatabase();
		const tableNames = (db: Database.Database) => db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
		const sabotage = new Database(path);
		// Fails the conversion after its first run is written: a stand-in for a crash or a full disk midway.
		sabotage.exec("CREATE TRIGGER interrupt BEFORE DELETE ON runs WHEN old.id = 'old-walk' BEGIN SELECT RAISE(ABORT, 'interrupted'); END;");
		sabotage.close();
		expect(() => openRunStore(path)).toThrow('interrupted');

		const db = new Database(path);
		expect(db.pragma('user_version', { simple: true })).toBe(0);
		expect(tableNames(db)).toEqual([{ name: 'runs' }]);
		expect(db.prepare('SELECT id FROM runs ORDER BY rowid').all()).toEqual([{ id: 'old-cancel' }, { id: 'old-walk' }]);
		db.exec('DROP TRIGGER interrupt');
		db.close();

		const store = openRunStore(path);
		expect(store.list().map((r) => r.id)).toEqual(['old-walk', 'old-cancel']);
		expect(JSON.stringify(store.get('old-walk'))).toBe(JSON.stringify(stored[1]));
		store.close();
	});

	it('keeps a run it cannot read in runs_v1 and converts the others', () => {
		const path = versionOneDatabase();
		const db = new Database(path);
		db.prepare("UPDATE runs SET run_json = ? WHERE id = 'old-cancel'").run('{"id": "old-cancel", "exchanges": [');
		db.close();
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		const store = openRunStore(path);
		expect(warn).toHaveBeenCalledWith(expect.stringContaining('1 run(s) of the first version could not be read'));
		warn.mockRestore();
		expect(store.list().map((r) => r.id)).toEqual(['old-walk']);
		store.close();

		const reopened = new Database(path);
		expect(reopened.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
		expect(reopened.prepare('SELECT id, run_json FROM runs_v1').all()).toEqual([{ id: 'old-cancel', run_json: '{"id": "old-cancel", "exchanges": [' }]);
		reopened.close();
		expect(openRunStore(path).list().map((r) => r.id)).toEqual(['old-walk']);
	});
});
