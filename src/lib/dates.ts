/** ISO calendar dates (YYYY-MM-DD, UTC), as the interface's `expires_on` and the sandbox clock's today are written. */

/** The day `days` after an ISO date (negative for before). */
export function addDays(isoDate: string, days: number): string {
	const date = new Date(`${isoDate}T00:00:00Z`);
	date.setUTCDate(date.getUTCDate() + days);
	return date.toISOString().slice(0, 10);
}
