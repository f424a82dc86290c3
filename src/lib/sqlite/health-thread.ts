/**
 * Whether each database the process keeps its data in can still be used, for the explorer's /health, checked off
 * the main thread. `PRAGMA quick_check` reads the whole file: 190-270 ms on a database of 93 MB, during which no
 * listener of the process (the explorer, both sandbox hosts) answered. The built server checks in one worker
 * thread, which is this module loaded again (module-worker.ts; callers import this module dynamically);
 * development and the unit tests check in the calling thread.
 */
import { basename } from 'node:path';
import { moduleWorker, workerPortFor } from '../module-worker';
import { databaseProblem } from './open-checked';

const ROLE = 'sso-flow-explorer/database-health';

type ToWorker = { id: number; path: string };
type FromWorker = { id: number; problem: string | null };

const port = workerPortFor(ROLE);
port?.on('message', ({ id, path }: ToWorker) => port.postMessage({ id, problem: databaseProblem(path) } satisfies FromWorker));

let nextId = 1;
const pending = new Map<number, (problem: string | null) => void>();

/** The worker, made on the first check. One that died fails the checks it held, as a problem to report. */
const checkWorker = moduleWorker<FromWorker>(
	import.meta.url,
	ROLE,
	({ id, problem }) => pending.get(id)?.(problem),
	(error) => {
		for (const deliver of pending.values()) deliver(`the check could not run: ${error.message}`);
	}
);

/** `databaseProblem(path)`, in the worker thread when there is one. */
function problemOf(path: string): Promise<string | null> {
	const thread = checkWorker();
	if (!thread) return Promise.resolve(databaseProblem(path));
	const id = nextId++;
	return new Promise<string | null>((resolve) => {
		pending.set(id, (problem) => {
			pending.delete(id);
			resolve(problem);
		});
		thread.postMessage({ id, path } satisfies ToWorker);
	});
}

export interface DatabaseHealth {
	ok: boolean;
	/** The databases that cannot be used: file name, what it holds, and why. */
	problems: { database: string; what: string; reason: string }[];
}

/** How long a check's answer is reused: /health may be polled often, and each check reads the whole file. */
const CHECK_TTL_MS = 10_000;
/** Per file: when its check began, and its answer (one check at a time; callers meanwhile wait for it). */
const checks = new Map<string, { at: number; problem: Promise<string | null> }>();

/**
 * Whether each database can still be used. Each is checked on a connection of its own, so damage written to the
 * file since it was opened shows, whatever the store's own connection has cached.
 */
export async function databaseHealth(databases: readonly { path: string; what: string }[], now: number = Date.now()): Promise<DatabaseHealth> {
	const checked = databases
		.filter(({ path }) => path !== ':memory:')
		.map(({ path, what }) => {
			let check = checks.get(path);
			if (!check || now - check.at >= CHECK_TTL_MS) checks.set(path, (check = { at: now, problem: problemOf(path) }));
			return check.problem.then((reason) => (reason ? [{ database: basename(path), what, reason }] : []));
		});
	const problems = (await Promise.all(checked)).flat();
	return { ok: problems.length === 0, problems };
}
