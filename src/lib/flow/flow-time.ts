/**
 * The clock a recorded flow's times are read on. Times are recorded on real time; the sandbox judges a code's age
 * on its own clock, which its control API can move ahead (`advance`). A time recorded against the sandbox carries
 * how far that clock was ahead then (`sandboxOffsetMs`), so the walk, its permalink and its exports read the same
 * code age from the same record. A time without one is on the clock that recorded it (the live log's: the sandbox's).
 */

/** A recorded time and, against the sandbox, how far the sandbox's clock was ahead of it (milliseconds). */
export interface ClockReading {
	at: string;
	sandboxOffsetMs?: number;
}

/** The instant on the clock the service judged it by, in milliseconds (NaN for a time that does not parse). */
export function flowMs({ at, sandboxOffsetMs }: ClockReading): number {
	return Date.parse(at) + (sandboxOffsetMs ?? 0);
}

/** The same as ISO 8601, or the recorded text itself when it does not parse. */
export function flowIso(reading: ClockReading): string {
	const ms = flowMs(reading);
	return Number.isNaN(ms) ? reading.at : new Date(ms).toISOString();
}

/** An exchange's start on the flow's clock. */
export const exchangeTime = (e: { startedAt: string; sandboxOffsetMs?: number }): ClockReading => ({ at: e.startedAt, sandboxOffsetMs: e.sandboxOffsetMs });

/** The redirect's arrival on the flow's clock. */
export const callbackTime = (c: { receivedAt: string; sandboxOffsetMs?: number }): ClockReading => ({ at: c.receivedAt, sandboxOffsetMs: c.sandboxOffsetMs });

/** Orders exchanges by the time each was recorded to start (`sort` is stable: equal times keep their order). */
export const byStartTime = (a: { startedAt: string }, b: { startedAt: string }) => Date.parse(a.startedAt) - Date.parse(b.startedAt);
