/**
 * How soon a request to the sandbox reaches a live view (issue 24: within a second): a live view of the bench
 * client subscribed, as a browser on /live/{client} is, with the log as the load runs left it (full), then one
 * token exchange of a fresh code at a time (a new flow each); each sample is the time from sending the request to
 * the first flow event the stream delivers after it. The stream's own keep-alive comments are not events.
 */
export const LIVE_ARRIVAL_SAMPLES = 20;
/** The stream first sends the flows it has; it is taken as caught up once it has been quiet this long. */
const QUIET_MS = 1500;
/** Longer than the live feed's push interval (features/live/live.ts). */
const SETTLE_MS = 500;
/** No arrival within this long is a failure of the figure, not a slow sample. */
const GIVE_UP_MS = 10_000;

export interface LiveArrival {
	eachMs: number[];
	medianMs: number;
	slowestMs: number;
}

/** Reads an event stream, resolving `next()` with the time of the next `event:` block (comments skipped). */
function eventClock(body: ReadableStream<Uint8Array>) {
	const reader = body.getReader();
	const decoder = new TextDecoder();
	let buffered = '';
	let lastEventAt = performance.now();
	// Set by next(); the cast keeps the reader loop from narrowing it to null.
	let waiting = null as ((at: number) => void) | null;
	const done = (async () => {
		for (;;) {
			const { value, done: ended } = await reader.read();
			if (ended) return;
			buffered += decoder.decode(value, { stream: true });
			let end: number;
			while ((end = buffered.indexOf('\n\n')) !== -1) {
				const block = buffered.slice(0, end);
				buffered = buffered.slice(end + 2);
				if (!block.startsWith('event:')) continue;
				lastEventAt = performance.now();
				waiting?.(lastEventAt);
				waiting = null;
			}
		}
	})().catch(() => undefined);
	return {
		quietFor: () => performance.now() - lastEventAt,
		next: () =>
			new Promise<number>((resolve, reject) => {
				const timer = setTimeout(() => reject(new Error(`no live event within ${GIVE_UP_MS} ms of a request to the sandbox`)), GIVE_UP_MS);
				waiting = (at) => {
					clearTimeout(timer);
					resolve(at);
				};
			}),
		done
	};
}

/** `send(i)`: the i-th request, answered 200. */
export async function liveArrival(eventsUrl: string, send: (i: number) => Promise<Response>): Promise<LiveArrival> {
	const controller = new AbortController();
	const response = await fetch(eventsUrl, { signal: controller.signal });
	if (!response.ok || !response.body) throw new Error(`the live view's event stream answered ${response.status}`);
	const clock = eventClock(response.body);
	try {
		while (clock.quietFor() < QUIET_MS) await new Promise((resolve) => setTimeout(resolve, QUIET_MS / 5));
		const eachMs: number[] = [];
		for (let i = 0; i < LIVE_ARRIVAL_SAMPLES; i++) {
			const arrived = clock.next();
			const sent = performance.now();
			const answer = await send(i);
			if (answer.status !== 200) throw new Error(`the sandbox answered ${answer.status} while timing the live view: ${await answer.text()}`);
			await answer.arrayBuffer();
			eachMs.push((await arrived) - sent);
			// A push may send more than one event: the next sample starts once the stream is quiet again.
			while (clock.quietFor() < SETTLE_MS) await new Promise((resolve) => setTimeout(resolve, SETTLE_MS / 4));
		}
		const sorted = [...eachMs].sort((a, b) => a - b);
		return { eachMs, medianMs: sorted[sorted.length >> 1]!, slowestMs: sorted.at(-1)! };
	} finally {
		controller.abort();
		await clock.done;
	}
}
