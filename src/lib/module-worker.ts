/**
 * A worker thread that runs the calling module again, for work that would hold the main thread (and so every
 * listener of the process) too long: reading a HAR, checking a database file. The module is imported dynamically by
 * its callers, so the build keeps it in a chunk of its own and the worker loads that chunk and its imports, not the
 * server's. Development and the unit tests, whose modules are TypeScript that a worker cannot load, get no worker:
 * the caller then works in its own thread.
 */
import { isMainThread, parentPort, Worker, workerData, type MessagePort } from 'node:worker_threads';

/**
 * The worker of `role` for the module at `moduleUrl`, made on first use; null where modules are TypeScript. One that
 * fails reports it to `onError` (the caller fails what it held) and is made again on next use. It never keeps the
 * process up.
 */
export function moduleWorker<FromWorker>(moduleUrl: string, role: string, onMessage: (message: FromWorker) => void, onError: (error: Error) => void): () => Worker | null {
	let worker: Worker | null | undefined;
	return () => {
		if (worker !== undefined) return worker;
		if (!moduleUrl.endsWith('.js')) return (worker = null);
		const made = new Worker(new URL(moduleUrl), { workerData: { role } });
		made.on('message', onMessage);
		made.on('error', (error) => {
			worker = undefined;
			onError(error);
		});
		made.on('exit', () => {
			if (worker === made) worker = undefined;
		});
		// After the listeners: a 'message' listener added later refs it again.
		made.unref();
		return (worker = made);
	};
}

/** The port to the thread that made this one, when this thread is the worker of `role` (moduleWorker); else null. */
export function workerPortFor(role: string): MessagePort | null {
	return !isMainThread && (workerData as { role?: string } | null)?.role === role ? parentPort : null;
}
