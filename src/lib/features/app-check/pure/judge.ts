/**
 * The app check's verdict on one check: its evidence against what a client should do (checks.ts). Every finding
 * names what was seen; a failure carries the check's fix. A check whose outcome never happened (the browser
 * never came back to the app, the sandbox's rule was never applied) is `not-run`, never a pass.
 */
import { isDefaultErrorPage } from '$lib/flow/browser/default-error-page';
import { ERROR_WORDING } from '$lib/flow/browser/page-says-error';
import { KEEP_TOKENS_ON_SERVER, TOKEN_IN_BROWSER_RISK, handedWords } from '$lib/flow/browser/token-advice';
import { refusesSignIn, ruleStage, STAGE_WORDS, type AppCheck, type AppCheckId } from './checks';
import type { LinkFinding, RowReference, ServerDiagnosis } from './engine';
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
	/** The row of the tables the engine names for the failure, as the live page names it for the same request. */
	row: RowReference | null;
	/** The client the browser arrived at the sandbox with. */
	clientId: string | null;
	evidence: AppCheckEvidence | null;
}

/** What is kept of a check's page to compare it with another's: UserEvidence's `fingerprint` and `template`. */
export interface PageMarks {
	page: string;
	template: string;
}

/** The pages of checks already judged, for the checks that compare answers (the `group` key, a refusal's page). */
export type Fingerprints = Partial<Record<AppCheckId, PageMarks>>;

export function notRun(check: AppCheck, reason: string, clientId: string | null = null, evidence: AppCheckEvidence | null = null): AppCheckResult {
	return { id: check.id, title: check.title, verdict: 'not-run', reason, findings: [], fix: null, row: null, clientId, evidence };
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
	const final = user.final!;
	const status = final.status;
	if (user.stackTrace.length > 0) found.push(`the user's page shows a stack trace ("${user.stackTrace[0]}")`);
	if (status !== null && status >= 500) found.push(`the user got a ${status} server error`);
	else if (check.page === 'ok' && status !== null && status >= 400) found.push(`the user got an error page (${status}), for what is a normal outcome`);
	else if (status !== null && status >= 400 && user.stackTrace.length === 0 && isDefaultErrorPage(final.excerpt))
		found.push(`the user got the framework's default ${status} error page ("${final.excerpt.slice(0, 80)}"), not a page of the app's own`);
	// Only on a page that looks normal: an error page may well say `undefined` in its message.
	const normal = user.stackTrace.length === 0 && (status === null || status < 400);
	if (check.page === 'ok' && normal) {
		const wording = ERROR_WORDING.exec(`${final.title} ${final.excerpt}`);
		if (wording) found.push(`the user's page says "${wording[0]}" (status ${status ?? 'unknown'}): an error page, for what is a normal outcome`);
		const broken = UNREAD_VALUE.exec(final.excerpt);
		if (broken) found.push(`the user's page shows \`${broken[0]}\`: the app read a field the answer does not have`);
	}
	if (user.tokenHanded) {
		const risk = TOKEN_IN_BROWSER_RISK.replace(/\.$/, '');
		found.push(`the app's answer at ${user.tokenHanded.url} hands the browser ${handedWords(user.tokenHanded)}: ${risk[0]!.toLowerCase()}${risk.slice(1)}`);
	}
	if (user.backToSignIn && !check.restartAllowed) {
		found.push('the app sent the user straight back to the sign-in page without them asking (a loop)');
	}
	return found;
}

/** What is wrong in the app's server's calls, by the check's requirements, in the check's words. */
function callFaults(check: AppCheck, evidence: AppCheckEvidence): string[] {
	const { exchanges, meCalls } = evidence.server;
	const found: string[] = [];
	if (check.action === 'cancel') {
		if (exchanges.length > 0) found.push('the app called /oauth/token after a cancel, with no code to exchange');
		return found;
	}
	if (check.needs.exchange && exchanges.length === 0) found.push('the app\'s server never exchanged the code at /oauth/token');
	if (check.id === 'success') {
		const first = exchanges[0];
		if (first && first.status !== 200) found.push(`the exchange answered ${first.status ?? 'nothing'}${first.error ? ` ${first.error}` : ''}`);
		if (exchanges.length > 1) found.push(`the app exchanged the code ${exchanges.length} times, where a sign-in takes exactly one exchange (a code works once, 2.2)`);
		if (first?.status === 200 && meCalls.length === 0) found.push('the app never read /api/v3/me.json, so it knows nothing of the user\'s verification');
		else if (meCalls[0] !== undefined && meCalls[0] !== 200) found.push(`me.json answered ${meCalls[0]}`);
	}
	return found;
}

/** The engine's account the judge names: an error always, a warning only as the cause of a fault of the calls. */
function engineAccount(check: AppCheck, evidence: AppCheckEvidence): ServerDiagnosis | null {
	const engine = evidence.server.diagnosis ?? null;
	return engine && (engine.severity === 'error' || callFaults(check, evidence).length > 0) ? engine : null;
}

/**
 * What is wrong in what the app's server did: the engine's what and why, as the live page says them, when it names
 * it (one finding: the engine tells one fault once); else the faults of the calls in the check's words.
 */
function serverFindings(check: AppCheck, evidence: AppCheckEvidence, engine: ServerDiagnosis | null): string[] {
	return engine ? [`${engine.what.replace(/\.$/, '')}: ${engine.cause.replace(/\.$/, '')}`] : callFaults(check, evidence);
}

/** The `group` key read as no verification: the app shows the page it shows an unverified user, not the success page. */
function groupKeyFinding(check: AppCheck, evidence: AppCheckEvidence, fingerprints: Fingerprints): string[] {
	if (check.id !== 'group-key') return [];
	const mine = evidence.user.fingerprint;
	const [success, unverified] = [fingerprints.success?.page, fingerprints['no-active-verification']?.page];
	if (mine === '' || success === undefined || unverified === undefined || success === unverified) return [];
	return mine === unverified && mine !== success ? ['the app read the `group` key as no verification: it showed the page it shows a user with none, not the success page'] : [];
}

/**
 * After a refusal, the app showed its signed-in page: the success check's page, the user's values aside (a page that
 * decoded me.json's error answer as a profile shows it with nothing in it). Not judged without the success check.
 */
function signedInAfterRefusal(check: AppCheck, evidence: AppCheckEvidence, fingerprints: Fingerprints): string[] {
	const success = fingerprints.success?.template;
	const { template, final } = evidence.user;
	if (!refusesSignIn(check) || !check.rule || success === undefined || template === '' || template !== success) return [];
	const status = final?.status ?? null;
	if (status !== null && status >= 400) return [];
	return [`the user got the app's signed-in page (the page the success check ended on, with the user's details left empty) after ${STAGE_WORDS[ruleStage(check.rule)]} was refused (${check.rule}): the app did not check the answer's status, and read the refusal as a sign-in`];
}

/**
 * The app repeated the request the rule answered, and the repeat got through (the rule is one-shot, and it keeps
 * the code): what the user saw is the answer to the repeat, so the check did not test what it claims.
 */
function retryPastRule(check: AppCheck, evidence: AppCheckEvidence): string | null {
	if (!check.rule || evidence.rule?.used !== true) return null;
	const stage = ruleStage(check.rule);
	const calls = stage === 'token' ? evidence.server.exchanges.map((e) => e.status) : evidence.server.meCalls;
	const later = calls.slice(1).findIndex((status) => status === 200);
	if (later === -1) return null;
	return `Inconclusive: the sandbox's \`${check.rule}\` rule answered the app's first ${requestsOf(check)} (${calls[0] ?? 'no answer'}), then the app sent it again and the repeat was answered 200 (request ${later + 2}), so what the user saw is not the app's handling of the rule's answer. Retrying a refused ${requestsOf(check)} does not help a real user: handle its answer once.`;
}

/**
 * The engine's findings about the link that this check names: an error always (a `client_secret` in the link fails
 * any check), a warning only as the likely cause of a check that fails without a failed request to explain it (the
 * `state` a client library checks on return).
 */
function linkFindingsOf(evidence: AppCheckEvidence, engine: ServerDiagnosis | null, failing: boolean): LinkFinding[] {
	const link = evidence.server.link ?? [];
	const explained = !failing || engine !== null;
	return link.filter((f) => f.severity === 'error' || !explained);
}

/**
 * The fix: the engine's, for what the app's server did or for the link, when it named one; else the check's own,
 * which for a loop after a cancel is the engine's advice on it (naming the client library the log shows).
 */
function fixOf(check: AppCheck, evidence: AppCheckEvidence, engine: ServerDiagnosis | null, findings: string[], link: LinkFinding[]): string {
	const token = evidence.user.tokenHanded ? KEEP_TOKENS_ON_SERVER : null;
	if (token && findings.length === 1) return token;
	const loop = check.action === 'cancel' && evidence.user.backToSignIn ? evidence.server.loopFix : undefined;
	const checkFix = loop ?? check.fix;
	// The engine's fix covers what the server did; the check's own covers what else the user got.
	const own = engine ? (findings.length > 1 ? `${engine.fix} ${checkFix}` : engine.fix) : (link[0]?.fix ?? checkFix);
	return token ? `${own} ${token}` : own;
}

/** The engine's row for the failure, when it named the server's fault by one. */
function rowOf(engine: ServerDiagnosis | null): RowReference | null {
	const reference = engine?.reference;
	return reference?.kind === 'row' ? reference : null;
}

export function judgeAppCheck(check: AppCheck, evidence: AppCheckEvidence, clientId: string | null, fingerprints: Fingerprints = {}): AppCheckResult {
	if (evidence.user.final === null) {
		return notRun(check, 'The browser never came back to the app after the sandbox\'s redirect.', clientId, evidence);
	}
	const retried = retryPastRule(check, evidence);
	if (retried) return notRun(check, retried, clientId, evidence);
	const engine = engineAccount(check, evidence);
	const own = [...userFindings(check, evidence), ...serverFindings(check, evidence, engine), ...groupKeyFinding(check, evidence, fingerprints), ...signedInAfterRefusal(check, evidence, fingerprints)];
	const link = linkFindingsOf(evidence, engine, own.length > 0);
	// The engine's findings on what the browser saw explain a failure found here; alone they make none.
	const page = own.length + link.length > 0 ? (evidence.server.page ?? []).filter((f) => f.severity === 'error') : [];
	const findings = [...own, ...[...link, ...page].map((f) => f.message.replace(/\.$/, ''))];
	// A rule never applied tested nothing of this check: what went wrong is the earlier step's, told by the success check.
	if (evidence.rule && evidence.rule.used === false) {
		const why = findings.length === 0 ? `the app made no ${requestsOf(check)} after the sign-in` : `the sign-in failed before it could (${findings[0]}); the success check tells what to fix first`;
		return notRun(check, `The sandbox's \`${evidence.rule.outcome}\` rule was never applied: ${why}.`, clientId, evidence);
	}
	if (findings.length === 0) {
		return { id: check.id, title: check.title, verdict: 'pass', reason: `As a client should: ${check.should[0]!.toLowerCase()}${check.should.slice(1)}`, findings, fix: null, row: null, clientId, evidence };
	}
	const reason = findings.map((f, i) => (i === 0 ? f[0]!.toUpperCase() + f.slice(1) : f)).join('; ');
	return { id: check.id, title: check.title, verdict: 'fail', reason: `${reason}. ${check.should}`, findings, fix: fixOf(check, evidence, engine, findings, link), row: rowOf(engine), clientId, evidence };
}

/**
 * The sandbox's sign-in page refused the app's link (a 7.1 error): no outcome could be tested, and the link the app
 * builds is wrong, which fails the check, with the engine's row and fix. Without the engine's finding it did not run.
 */
export function judgeRefusedLink(check: AppCheck, problem: string, refused: readonly LinkFinding[], clientId: string | null): AppCheckResult {
	const first = refused.find((f) => f.severity === 'error');
	if (!first) return notRun(check, problem, clientId);
	const said = first.message.replace(/\.$/, '');
	const findings = [`the sandbox's sign-in page refused the app's link: ${said[0]!.toLowerCase()}${said.slice(1)}`];
	return { id: check.id, title: check.title, verdict: 'fail', reason: `${findings[0]![0]!.toUpperCase()}${findings[0]!.slice(1)}. ${check.should}`, findings, fix: first.fix, row: first.row ?? null, clientId, evidence: null };
}

/** Any failure fails the run; so does a check that could not run (it proves nothing). */
export function appCheckExitCode(results: readonly Pick<AppCheckResult, 'verdict'>[]): 0 | 1 {
	return results.every((r) => r.verdict === 'pass') ? 0 : 1;
}
