/**
 * The sandbox clock: real time plus an offset that `POST /sandbox/clock` moves forward, kept in the settings row.
 */
import type Database from 'better-sqlite3';

const DAY_MS = 24 * 60 * 60 * 1000;

function isoDay(date: Date): string {
	return date.toISOString().slice(0, 10);
}

export interface SandboxClock {
	/** Milliseconds since the epoch on the sandbox clock. */
	nowMs(): number;
	/** YYYY-MM-DD (UTC) on the sandbox clock. */
	today(): string;
	advance(seconds: number): Date;
	/** Back to real time. */
	reset(): void;
}

export function openClock(db: Database.Database): SandboxClock {
	const getOffset = db.prepare<[], { clock_offset_ms: number }>('SELECT clock_offset_ms FROM settings WHERE id = 1');
	const setOffset = db.prepare<[number]>('UPDATE settings SET clock_offset_ms = ? WHERE id = 1');

	// The offset is read once and written through: this process is the database's only writer.
	let offsetMs = getOffset.get()?.clock_offset_ms ?? 0;
	const nowMs = () => Date.now() + offsetMs;

	// me.json asks for the day on every request; the string is made once a day.
	let day = { startMs: 0, endMs: 0, iso: '' };
	function today(): string {
		const now = nowMs();
		if (now < day.startMs || now >= day.endMs) {
			const startMs = now - (now % DAY_MS);
			day = { startMs, endMs: startMs + DAY_MS, iso: isoDay(new Date(startMs)) };
		}
		return day.iso;
	}

	return {
		nowMs,
		today,
		advance(seconds) {
			setOffset.run(offsetMs + Math.round(seconds * 1000));
			offsetMs += Math.round(seconds * 1000);
			return new Date(nowMs());
		},
		reset() {
			setOffset.run(0);
			offsetMs = 0;
		}
	};
}
