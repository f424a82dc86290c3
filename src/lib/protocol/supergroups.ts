import type { Verification } from './schemas';

/** Consumer supergroups (interface 2.5). The API value is both the authorisation path segment and the value in a verification. */
export const SUPERGROUPS = [
	{ value: 'student', name: 'Students', contains: 'Students only (post-16 and higher education)' },
	{ value: 'graduate', name: 'Graduates', contains: 'Graduates only (up to 5 years after graduation)' },
	{
		value: 'key-worker',
		name: 'Key Worker',
		contains: 'Military and veterans, healthcare workers, first responders, teachers, charity workers'
	},
	{ value: 'social-assistance', name: 'Social Assistance', contains: 'Low-income, disabled people, new parents' }
] as const;

export type Supergroup = (typeof SUPERGROUPS)[number]['value'];

export const SUPERGROUP_VALUES = SUPERGROUPS.map((s) => s.value) as [Supergroup, ...Supergroup[]];

export function isSupergroup(value: string): value is Supergroup {
	return (SUPERGROUP_VALUES as readonly string[]).includes(value);
}

export function supergroupName(value: string): string | undefined {
	return SUPERGROUPS.find((s) => s.value === value)?.name;
}

/** The supergroup of a verification, whichever key carried it (2.4 names `supergroup`, its sample `group`). */
export function verificationSupergroup(v: Verification): string {
	return 'supergroup' in v ? v.supergroup : v.group;
}
