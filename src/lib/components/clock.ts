/**
 * Which clock the walk's times are on. Against the sandbox, codes are issued and expire on the sandbox's clock,
 * which the control API can move ahead of real time; against a custom target, on real time.
 */
import { utcClockTime } from './exchange/exchangeDisplay';

export type ClockName = 'sandbox' | 'real';

export interface ShownClock {
	name: ClockName;
	/**
	 * That clock minus the browser's, in whole seconds' worth of milliseconds, measured when the server's view
	 * arrived. Whole seconds, so the server's render and the browser's agree on every time shown.
	 */
	offsetMs: number;
}

/** The walk's clock: the sandbox's when the server sent the sandbox's now, real time (the browser's) otherwise. */
export function walkClock(sandboxNow: string | null, browserNowMs: number): ShownClock {
	const sandbox = sandboxNow === null ? Number.NaN : Date.parse(sandboxNow);
	if (Number.isNaN(sandbox)) return { name: 'real', offsetMs: 0 };
	return { name: 'sandbox', offsetMs: Math.round((sandbox - browserNowMs) / 1000) * 1000 };
}

/** "sandbox clock", "real clock". */
export const clockWords = (name: ClockName) => `${name} clock`;

/** Now on `clock`, from the browser's now. */
export const clockNow = (clock: ShownClock, browserNowMs: number) => browserNowMs + clock.offsetMs;

/** A real-time instant (an exchange's start: the explorer's server times them) as "12:01:02 UTC" on `clock`. */
export function realTimeOn(clock: ShownClock, iso: string): string {
	const ms = Date.parse(iso);
	return Number.isNaN(ms) ? iso : utcClockTime(new Date(ms + clock.offsetMs).toISOString());
}
