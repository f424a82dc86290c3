/** Time left until an instant, written for a person. */

export type Remaining = { kind: 'left'; ms: number } | { kind: 'expired' } | { kind: 'invalid' };

export function remaining(expiresAt: string, nowMs: number): Remaining {
	const end = Date.parse(expiresAt);
	if (Number.isNaN(end)) return { kind: 'invalid' };
	return end > nowMs ? { kind: 'left', ms: end - nowMs } : { kind: 'expired' };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "1:59:12" (hours unpadded, minutes and seconds two digits); seconds round down. */
export function clock(ms: number): string {
	const total = Math.floor(ms / 1000);
	return `${Math.floor(total / 3600)}:${pad(Math.floor(total / 60) % 60)}:${pad(total % 60)}`;
}

/** Whole minutes left, rounded up, so "1 minute" is said until the very end. Announced when it changes. */
export function minutesLeft(ms: number): number {
	return Math.ceil(ms / 60_000);
}

export function minutesPhrase(minutes: number): string {
	const hours = Math.floor(minutes / 60);
	const rest = minutes % 60;
	const parts = [
		...(hours > 0 ? [`${hours} hour${hours === 1 ? '' : 's'}`] : []),
		...(rest > 0 || hours === 0 ? [`${rest} minute${rest === 1 ? '' : 's'}`] : [])
	];
	return parts.join(' ');
}
