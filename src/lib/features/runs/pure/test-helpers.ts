/** Builders for tests: a run and its exchanges with little noise, and shared fixtures. */
import type { Annotation } from '$lib/flow/diagnose/diagnose';
import type { Run } from './run';

export { exchange, headers } from '$lib/flow/test-helpers';

/** The annotation of a token exchange that reused a code (7.2's invalid_grant, cause `used`). */
export const reusedCodeAnnotation: Annotation = {
	outcome: 'error',
	title: '400 invalid_grant',
	summary: 'The code was already exchanged.',
	rowId: 'token-invalid-grant',
	causeId: 'used',
	candidates: [],
	fix: 'Exchange each code once.'
};

export function run(partial: Partial<Run>): Run {
	return {
		id: 'run-1',
		title: 'a run',
		createdAt: '2026-01-01T09:59:00.000Z',
		target: { kind: 'custom', authUrl: 'https://auth.example.com', accountsUrl: 'https://accounts.example.com' },
		sandboxClock: null,
		link: null,
		callback: null,
		exchanges: [],
		redactions: [],
		source: 'walk',
		...partial
	};
}

/** The secrets, tokens and password in the HAR fixtures (fixtures/), and their cookies' values: none may survive an import. */
export const FIXTURE_SECRETS = ['Sh0p-Secret-4f8a9b2c1d', 'Wrong-Secret-0000', 'at_7Yq2Lm9Xw4Rt8Kp3Vn6Bz1Cd', 'rt_3Hs8Jk2Lp9Qw4Er7Ty1Ui6Op', 'correct horse'];
export const FIXTURE_COOKIES = ['9f8e7d6c5b4a', 'aa11bb22cc33', 'dd44ee55ff66', 'GA1.2.111.222'];
