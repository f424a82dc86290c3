/**
 * A HAR read off the server's main thread. Reading, discovering and redacting a HAR of a few hundred sign-ins takes
 * the CPU for most of a second; on the main thread that stalls every listener of the process (the explorer and
 * both sandbox hosts) for every user. The built server reads HARs in one worker thread, which is this module
 * loaded again (module-worker.ts); development and the unit tests, whose modules are TypeScript that a worker cannot load, read them
 * in the calling thread.
 *
 * The file streams to the worker in chunks, at most `IN_FLIGHT` of them unread at a time, so a large upload is
 * held back as before rather than queued whole in memory. Callers import this module dynamically: the build then
 * keeps it in a chunk of its own, and the worker loads that chunk and the HAR reader's modules, not the server's.
 */
import type { MessagePort } from 'node:worker_threads';
import { moduleWorker, workerPortFor } from '../../module-worker';
import { harStreamToRun, type HarImport, type HarImportOptions } from './pure/har/har';

const ROLE = 'sso-flow-explorer/har-import';
const IN_FLIGHT = 8;

type ToWorker =
	| { id: number; kind: 'start'; options: HarImportOptions }
	| { id: number; kind: 'chunk'; chunk: Uint8Array }
	| { id: number; kind: 'end' }
	/** The upload stopped (the client went away, or was cut for taking too long): the import lets go of what it read. */
	| { id: number; kind: 'cancel' };
type FromWorker = { id: number; kind: 'read' } | { id: number; kind: 'done'; result: HarImport } | { id: number; kind: 'failed'; message: string };

/* ------------------------------------------------------------------ the worker's side */

/**
 * Chunks as they arrive, read by the import as an async iterable; `onRead` after each is taken. Cancelled, the
 * iterable throws, as the upload's own stream does when it fails, and the import ends.
 */
function chunkQueue(onRead: () => void) {
	const waiting: Uint8Array[] = [];
	let ended = false;
	let cancelled = false;
	let wake: (() => void) | null = null;
	const iterable: AsyncIterable<Uint8Array> = {
		async *[Symbol.asyncIterator]() {
			for (;;) {
				if (cancelled) throw new Error('the upload stopped');
				if (waiting.length > 0) {
					yield waiting.shift()!;
					onRead();
				} else if (ended) return;
				else await new Promise<void>((resolve) => (wake = resolve));
			}
		}
	};
	const poke = () => {
		wake?.();
		wake = null;
	};
	return {
		iterable,
		push: (chunk: Uint8Array) => (waiting.push(chunk), poke()),
		end: () => ((ended = true), poke()),
		cancel: () => ((cancelled = true), (waiting.length = 0), poke())
	};
}

/** The worker's side of the protocol on `port` (exported for its test, which drives it over a MessageChannel). */
export function serve(port: MessagePort) {
	const imports = new Map<number, ReturnType<typeof chunkQueue>>();
	const post = (message: FromWorker) => port.postMessage(message);
	port.on('message', (message: ToWorker) => {
		if (message.kind === 'start') {
			const queue = chunkQueue(() => post({ id: message.id, kind: 'read' }));
			imports.set(message.id, queue);
			harStreamToRun(queue.iterable, message.options).then(
				(result) => post({ id: message.id, kind: 'done', result }),
				(error: unknown) => post({ id: message.id, kind: 'failed', message: error instanceof Error ? error.message : String(error) })
			).finally(() => imports.delete(message.id));
		} else if (message.kind === 'chunk') imports.get(message.id)?.push(message.chunk);
		else if (message.kind === 'cancel') imports.get(message.id)?.cancel();
		else imports.get(message.id)?.end();
	});
}

const port = workerPortFor(ROLE);
if (port) serve(port);

/* ------------------------------------------------------------------ the server's side */

let nextId = 1;
const pending = new Map<number, (message: FromWorker) => void>();

/** The worker, made on the first import. One that died (out of memory on a hostile file) fails the imports it held. */
const importWorker = moduleWorker<FromWorker>(
	import.meta.url,
	ROLE,
	(message) => pending.get(message.id)?.(message),
	(error) => {
		for (const [id, deliver] of pending) deliver({ id, kind: 'failed', message: error.message });
	}
);

/** `harStreamToRun` of `chunks`, in the worker thread when there is one. */
export async function readHar(chunks: AsyncIterable<Uint8Array>, options: HarImportOptions): Promise<HarImport> {
	const thread = importWorker();
	if (!thread) return harStreamToRun(chunks, options);
	const id = nextId++;
	let unread = 0;
	let onRead: (() => void) | null = null;
	let settle!: (message: FromWorker) => void;
	const finished = new Promise<FromWorker>((resolve) => (settle = resolve));
	pending.set(id, (message) => {
		if (message.kind !== 'read') return settle(message);
		unread--;
		onRead?.();
		onRead = null;
	});
	const state: { outcome: FromWorker | null } = { outcome: null };
	void finished.then((message) => (state.outcome = message));
	let sent = false;
	try {
		thread.postMessage({ id, kind: 'start', options } satisfies ToWorker);
		for await (const chunk of chunks) {
			while (unread >= IN_FLIGHT && state.outcome === null) await Promise.race([new Promise<void>((resolve) => (onRead = resolve)), finished]);
			// Done early (too large, not a HAR): the rest of the body is not read.
			if (state.outcome !== null) break;
			const copy = chunk.slice();
			unread++;
			thread.postMessage({ id, kind: 'chunk', chunk: copy } satisfies ToWorker, [copy.buffer]);
		}
		thread.postMessage({ id, kind: 'end' } satisfies ToWorker);
		sent = true;
		const message = await finished;
		if (message.kind === 'failed') throw new Error(`Reading the HAR failed: ${message.message}`);
		if (message.kind !== 'done') throw new Error('Reading the HAR failed: the worker answered out of turn.');
		return message.result;
	} finally {
		// The upload failed before its end: without this the worker's import would wait for more, holding all it read.
		if (!sent) thread.postMessage({ id, kind: 'cancel' } satisfies ToWorker);
		pending.delete(id);
	}
}
