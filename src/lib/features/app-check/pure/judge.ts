/**
 * The app check's verdict on one check: its evidence against what a client should do (checks.ts). Every finding
 * names what was seen; a failure carries the check's fix. A check whose outcome never happened (the browser
 * never came back to the app, the sandbox's rule was never applied) is `not-run`, never a pass.
 */
import type { AppCheck, AppCheckId } from './checks';
import type { AppCheckEvidence } from './evidence';

export type AppCheckVerdict = 'pass' | 'fail' | 'not-run';

export interface AppCheckResult {
	id: AppCheckId;
	title: string;
	verdict: AppCheckVerdict;
	/** Why, in a sentence or two: the findings, or what the app did right. */
	reason: string;
	findings: string[];
	fix: string | null;
	/** The client the browser arrived at the sandbox with. */
	clientId: string | null;
	evidence: AppCheckEvidence | null;
}

/** Page fingerprints of checks already judged, for the checks that compare answers (the `group` key). */
export type Fingerprints = Partial<Record<AppCheckId, string>>;

export function notRun(check: AppCheck, reason: string, clientId: string | null = null, evidence: AppCheckEvidence | null = null): AppCheckResult {
	return { id: check.id, title: check.title, verdict: 'not-run', reason, findings: [], fix: null, clientId, evidence };
}

function requestsOf(check: AppCheck): string {
	return check.rule?.startsWith('me-') ? 'me.json call' : 'token request';
}

/** What a page shows when the app printed a field the answer lacks (JavaScript's spelling; others print nothing). */
const UNREAD_VALUE = /\b(?:undefined|NaN)\b|\[object Object\]/;

/** What is wrong in what the user got. */
function userFindings(check: AppCheck, evidence: AppCheckEvidence): string[] {
	const { user } = evidence;
	const found: string[] = [];
	const status = user.final?.status ?? null;
	if (user.stackTrace.length > 0) found.push(`the user's page shows a stack trace ("${user.stackTrace[0]}")`);
	if (status !== null && status >= 500 && check.page !== 'own-page') found.push(`the user got a ${status} server error`);
	else if (check.page === 'ok' && status !== null && status >= 400) found.push(`the user got an error page (${status}), for what is a normal outcome`);
	// Only on a page that looks normal: an error page may well say `undefined` in its message.
	const normal = user.final !== null && user.stackTrace.length === 0 && (status === null || status < 400);
	const broken = check.page === 'ok' && normal ? UNREAD_VALUE.exec(user.final!.excerpt) : null;
	if (broken) found.push(`the user's page shows \`${broken[0]}\`: the app read a field the answer does not have`);
	if (user.backToSignIn && !check.restartAllowed) {
		found.push('the app sent the user straight back to the sign-in page without them asking (a loop)');
	}
	return found;
}

/** What is wrong in what the app's server did. */
function serverFindings(check: AppCheck, evidence: AppCheckEvidence): string[] {
	const { exchanges, meCalls } = evidence.server;
	const found: string[] = [];
	if (check.action === 'cancel') {
		if (exchanges.length > 0) found.push('the app called /oauth/token after a cancel, with no code to exchange');
		return found;
	}
	if (check.needs.exchange && exchanges.length === 0) found.push('the app\'s server never exchanged the code at /oauth/token');
	if (check.id === 'success') {
		const first = exchanges[0];
		if (first && first.status !== 200) found.push(`the exchange answered ${first.status ?? 'nothing'}${first.error ? ` ${first.error}` : ''} (check the client id, secret and redirect_uri)`);
		if (first?.status === 200 && meCalls.length === 0) found.push('the app never read /api/v3/me.json, so it knows nothing of the user\'s verification');
		else if (meCalls[0] !== undefined && meCalls[0] !== 200) found.push(`me.json answered ${meCalls[0]}`);
	}
	return found;
}

/** The `group` key read as no verification: the app shows the page it shows an unverified user, not the success page. */
function groupKeyFinding(check: AppCheck, evidence: AppCheckEvidence, fingerprints: Fingerprints): string[] {
	if (check.id !== 'group-key') return [];
	const mine = evidence.user.fingerprint;
	const { success, 'no-active-verification': unverified } = fingerprints;
	if (mine === '' || success === undefined || unverified === undefined || success === unverified) return [];
	return mine === unverified && mine !== success ? ['the app read the `group` key as no verification: it showed the page it shows a user with none, not the success page'] : [];
}

export function judgeAppCheck(check: AppCheck, evidence: AppCheckEvidence, clientId: string | null, fingerprints: Fingerprints = {}): AppCheckResult {
	if (evidence.user.final === null) {
		return notRun(check, 'The browser never came back to the app after the sandbox\'s redirect.', clientId, evidence);
	}
	const findings = [...userFindings(check, evidence), ...serverFindings(check, evidence), ...groupKeyFinding(check, evidence, fingerprints)];
	if (findings.length === 0 && evidence.rule && evidence.rule.used === false) {
		return notRun(check, `The sandbox's \`${evidence.rule.outcome}\` rule was never applied: the app made no ${requestsOf(check)} after the sign-in.`, clientId, evidence);
	}
	if (findings.length === 0) {
		return { id: check.id, title: check.title, verdict: 'pass', reason: `As a client should: ${check.should[0]!.toLowerCase()}${check.should.slice(1)}`, findings, fix: null, clientId, evidence };
	}
	const reason = findings.map((f, i) => (i === 0 ? f[0]!.toUpperCase() + f.slice(1) : f)).join('; ');
	return { id: check.id, title: check.title, verdict: 'fail', reason: `${reason}. ${check.should}`, findings, fix: check.fix, clientId, evidence };
}

/** Any failure fails the run; so does a check that could not run (it proves nothing). */
export function appCheckExitCode(results: readonly Pick<AppCheckResult, 'verdict'>[]): 0 | 1 {
	return results.every((r) => r.verdict === 'pass') ? 0 : 1;
}
