/**
 * Waiting for something the browser may never do (reach the sandbox, come back to the app) for at most a step's
 * time. The timer and its hold on the run's stop signal go as soon as the wait settles: a run of ten checks waits
 * dozens of times on one signal, and timers left running until their timeout piled up listeners on it.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Whether `event` happened within `ms`; rejects when `stop` aborts first. */
export async function within(event: Promise<unknown>, ms: number, stop: AbortSignal): Promise<boolean> {
	const settled = new AbortController();
	try {
		return await Promise.race([event.then(() => true), sleep(ms, false, { signal: AbortSignal.any([stop, settled.signal]) })]);
	} finally {
		settled.abort();
	}
}
