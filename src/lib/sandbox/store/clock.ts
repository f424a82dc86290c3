/**
 * A workspace's clock: real time plus an offset, kept in the workspace's row. `POST /sandbox/clock` moves it
 * forward, sets it to any instant (backwards too) or puts it back on real time; each workspace has its own.
 */
const DAY_MS = 24 * 60 * 60 * 1000;

function isoDay(date: Date): string {
	return date.toISOString().slice(0, 10);
}

export interface SandboxClock {
	/** Milliseconds since the epoch on this clock. */
	nowMs(): number;
	/** YYYY-MM-DD (UTC) on this clock. */
	today(): string;
	advance(seconds: number): Date;
	/** Runs on from `at`. */
	set(at: Date): Date;
	/** Back to real time. */
	reset(): void;
}

/** A clock starting at `offsetMs`; `save` writes each new offset (this process is the database's only writer). */
export function workspaceClock(offsetMs: number, save: (offsetMs: number) => void): SandboxClock {
	const nowMs = () => Date.now() + offsetMs;
	function setOffset(next: number): void {
		save(next);
		offsetMs = next;
	}

	// me.json asks for the day on every request; the string is made once a day.
	let day = { startMs: 0, endMs: 0, iso: '' };
	function today(): string {
		const now = nowMs();
		if (now < day.startMs || now >= day.endMs) {
			const startMs = now - (((now % DAY_MS) + DAY_MS) % DAY_MS);
			day = { startMs, endMs: startMs + DAY_MS, iso: isoDay(new Date(startMs)) };
		}
		return day.iso;
	}

	return {
		nowMs,
		today,
		advance(seconds) {
			setOffset(offsetMs + Math.round(seconds * 1000));
			return new Date(nowMs());
		},
		set(at) {
			setOffset(at.getTime() - Date.now());
			return new Date(nowMs());
		},
		reset: () => setOffset(0)
	};
}
