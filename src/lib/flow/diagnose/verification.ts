/**
 * One verification from me.json (2.4), rendered for a person. `expires_on` is the first day the verification is
 * no longer valid, so it is active until the day before. Dates are calendar dates, compared in UTC.
 */
import { supergroupName, verificationSupergroup, type Verification } from '$lib/protocol';

export interface VerificationDescription {
	supergroup: string;
	/** The supergroup's name from 2.5, or the raw value when it is not one of the four. */
	name: string;
	expiresOn: string;
	/** The last day the verification is valid: the day before `expires_on`. */
	lastValidDay: string;
	/** Days it is still valid, today included; 0 once it has expired. */
	daysLeft: number;
	active: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function utcDay(date: string): number {
	const [year = NaN, month = NaN, day = NaN] = date.split('-').map(Number);
	return Date.UTC(year, month - 1, day);
}

function isoDay(ms: number): string {
	return new Date(ms).toISOString().slice(0, 10);
}

export function describeVerification(v: Verification, today: string): VerificationDescription {
	const supergroup = verificationSupergroup(v);
	const expires = utcDay(v.expires_on);
	const remaining = Math.round((expires - utcDay(today)) / DAY_MS);
	return {
		supergroup,
		name: supergroupName(supergroup) ?? supergroup,
		expiresOn: v.expires_on,
		lastValidDay: isoDay(expires - DAY_MS),
		daysLeft: Math.max(0, remaining),
		active: remaining > 0
	};
}
