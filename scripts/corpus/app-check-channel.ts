/**
 * The app check as a channel of the corpus: the one check of the app check's plan (APP_CHECKS) that takes the
 * case's journey (a sign-in, a cancel, a reload of the callback, an outcome rule, a deleted account), run by the app
 * check's own driver on the case's app, as `npm run app-check -- --start-url {app}/login --check {id}` would. Its
 * result is told like the other channels' verdicts: a failed check as an error naming its reason, findings and fix.
 */
import type { Browser } from 'playwright-core';
import { runAppCheck } from '../../src/lib/features/app-check/driver';
import { APP_CHECKS, refusesSignIn, type AppCheck } from '../../src/lib/features/app-check/pure/checks';
import type { AppCheckResult } from '../../src/lib/features/app-check/pure/judge';
import { loadConfig, type ExplorerConfig } from '../../src/lib/platform/config';
import type { Journey } from '../../tests/corpus/cases';
import type { Told } from './channels';

/** The fixture user who asked for deletion: me.json answers 404, as the `me-404` check's rule makes it. */
const DELETED_LOGIN = 'deleted@example.com';

const checkById = (id: AppCheck['id']): AppCheck => APP_CHECKS.find((c) => c.id === id)!;

/** The check that makes the journey's outcome happen; a journey no check takes throws (a case the table cannot grade). */
export function checkOfJourney(journey: Journey): AppCheck {
	if (journey.decision === 'cancel') return checkById('cancel');
	if (journey.reload) return checkById('code-reused');
	if (journey.login === DELETED_LOGIN) return checkById('me-404');
	if (journey.verificationKey === 'group') return checkById('group-key');
	if (journey.outcome) {
		const check = APP_CHECKS.find((c) => c.rule === journey.outcome);
		if (!check) throw new Error(`No check of the app check sets the outcome rule ${journey.outcome}.`);
		return check;
	}
	if (journey.login !== undefined) throw new Error(`No check of the app check signs in as ${journey.login}.`);
	return checkById('success');
}

/** A check's result as the user reads it; null when it could not run (graded like a channel that found no flow). */
export function toldOfAppCheck(result: AppCheckResult): Told | null {
	if (result.verdict === 'not-run') return null;
	return {
		verdict: {
			severity: result.verdict === 'fail' ? 'error' : 'success',
			what: `${result.title}: ${result.reason}`,
			cause: result.findings.join(' '),
			fix: result.fix ?? '',
			row: result.row?.rowId ?? null
		},
		findings: result.findings
	};
}

export interface AppUnderCheck {
	startUrl: string;
	clientId: string;
	clientSecret: string;
}

/**
 * The checks run for the journey, its own last: a check that compares its page with the success check's (a refusal
 * answered with the signed-in page) runs after it, as in the app check's whole plan.
 */
export function checksOfJourney(journey: Journey): AppCheck[] {
	const check = checkOfJourney(journey);
	return refusesSignIn(check) ? [checkById('success'), check] : [check];
}

let explorerDefaults: ExplorerConfig | undefined;

/** The explorer's default configuration (the app check's allowlist and address rules), parsed once. */
function defaults(): ExplorerConfig {
	if (explorerDefaults) return explorerDefaults;
	const config = loadConfig({});
	if (!config.ok) throw new Error(config.message);
	return (explorerDefaults = config.config);
}

/** Runs the journey's checks on the app, signing in at the sandbox's two hosts, in `browser`; tells the journey's own. */
export async function appCheckChannel(browser: Browser, journey: Journey, app: AppUnderCheck, sandbox: { authUrl: string; accountsUrl: string }): Promise<Told | null> {
	const outcome = await runAppCheck(
		{
			startUrl: app.startUrl,
			click: null,
			authUrl: sandbox.authUrl,
			accountsUrl: sandbox.accountsUrl,
			workspaceKey: null,
			adminToken: null,
			secrets: [app.clientSecret],
			checks: checksOfJourney(journey),
			config: defaults(),
			expectedClientId: app.clientId
		},
		browser
	);
	return toldOfAppCheck(outcome.results.at(-1)!);
}
