/**
 * The app check's plan, as data: each check drives the integrator's app through the sandbox's sign-in once, and
 * makes one outcome happen, either by what the browser does (Authorise, Cancel, reload the callback) or by a
 * one-shot outcome rule the sandbox applies to the client's next matching request (`POST /sandbox/outcomes`).
 * What a client should do in each case is the interface's (service-interface.md sections 3, 7.2, 7.3, 2.4).
 */
import type { OutcomeId } from '$lib/protocol';
import { READ_EITHER_KEY, READ_EMPTY_LIST } from '$lib/protocol/me-reading';

/** The sandbox's one-shot outcome rules the app check uses (the outcome ids of `POST /sandbox/outcomes`). */
export type OutcomeRule = Exclude<OutcomeId, 'authorise-cancel' | 'me-expired-verification'>;

/** What the browser does at the sandbox's consent page, and after the app's answer. */
export type BrowserAction = 'authorise' | 'cancel' | 'authorise-then-reload-callback';

export type AppCheckId =
	| 'success'
	| 'cancel'
	| 'code-reused'
	| 'code-expired'
	| 'invalid-client'
	| 'me-401'
	| 'me-403'
	| 'me-404'
	| 'no-active-verification'
	| 'group-key';

/**
 * What the judge asks of the user's page (never a stack trace, whatever the check). `ok`: a normal page (below
 * 400, with no error wording); `handled`: a page of the app's own for a refusal: any status but a 5xx, never a
 * framework's default error page (the app may say the sign-in failed, with a way to start again).
 */
export type PageExpectation = 'ok' | 'handled';

export interface AppCheck {
	id: AppCheckId;
	title: string;
	action: BrowserAction;
	/** The rule set before the sign-in, consumed by the app's next token or me.json request; none for browser-only checks. */
	rule: OutcomeRule | null;
	/** How the outcome is produced, for the report. */
	how: string;
	/** What a client should do, for the report and the judge's reasons. */
	should: string;
	page: PageExpectation;
	/** The app's server must exchange the code (and read me.json) for the check to mean anything. */
	needs: { exchange: boolean; me: boolean };
	/**
	 * Whether sending the user to the sign-in page again on its own is a fair recovery here (the code or token is
	 * spent). After a cancel, or on a normal answer, it is a loop: the user is back where they chose to leave.
	 */
	restartAllowed: boolean;
	/** How to fix a failure, for the report. */
	fix: string;
}

export const APP_CHECKS: readonly AppCheck[] = [
	{
		id: 'success',
		title: 'Success',
		action: 'authorise',
		rule: null,
		how: 'The user signs in and presses Authorise.',
		should: 'Exchange the code, read me.json and show the user a normal page.',
		page: 'ok',
		needs: { exchange: true, me: true },
		restartAllowed: false,
		fix: 'On the callback, exchange `code` at /oauth/token (from the server, with the client secret), then read /api/v3/me.json with the access token.'
	},
	{
		id: 'cancel',
		title: 'Cancel',
		action: 'cancel',
		rule: null,
		how: 'The user signs in and presses Cancel: the redirect carries neither `code` nor `error`.',
		should: 'Treat it as a normal outcome (interface section 3: "not an error"): no exchange, no error page, and never send the user straight back to the sign-in page.',
		page: 'ok',
		needs: { exchange: false, me: false },
		restartAllowed: false,
		fix: 'When the callback has no `code`, show a page that says sign-in was cancelled (with a button to try again) instead of restarting the sign-in; do not call /oauth/token.'
	},
	{
		id: 'code-reused',
		title: 'Callback reloaded (code reused)',
		action: 'authorise-then-reload-callback',
		rule: null,
		how: 'A successful sign-in, then the callback URL is loaded again (a reload, a back button, a shared link): the app gets a code it already exchanged.',
		should: 'A code is single use (interface 2.2): the second exchange answers 400 invalid_grant. Show the signed-in page or offer to sign in again, never a server error.',
		page: 'handled',
		needs: { exchange: true, me: false },
		restartAllowed: true,
		fix: 'Handle the token endpoint\'s 400 invalid_grant: if the user is already signed in, send them on; otherwise offer to sign in again. Never let the error reach the framework\'s default error handler.'
	},
	{
		id: 'code-expired',
		title: 'Code expired',
		action: 'authorise',
		rule: 'token-invalid-grant',
		how: 'The sandbox answers the exchange 400 invalid_grant, exactly as for a code older than two hours. (The app exchanges the code the moment it arrives, so waiting is no way to test it; the one-shot rule gives the same answer without moving the clock anyone else shares.)',
		should: 'Offer to sign in again; not a server error.',
		page: 'handled',
		needs: { exchange: true, me: false },
		restartAllowed: true,
		fix: 'Handle 400 invalid_grant from /oauth/token: the code was expired, used or not this client\'s; start a fresh sign-in when the user asks.'
	},
	{
		id: 'invalid-client',
		title: 'invalid_client',
		action: 'authorise',
		rule: 'token-invalid-client',
		how: 'The sandbox answers the exchange 401 invalid_client, as for a wrong client secret.',
		should: 'Tell the user sign-in is unavailable and log the cause for the operator; no stack trace or server internals to the user.',
		page: 'handled',
		needs: { exchange: true, me: false },
		restartAllowed: false,
		fix: 'Handle 401 invalid_client from /oauth/token: log it (a wrong client id or secret) and show a friendly page.'
	},
	{
		id: 'me-401',
		title: 'me.json 401',
		action: 'authorise',
		rule: 'me-401',
		how: 'The sandbox answers the app\'s me.json call 401, as for an invalid token.',
		should: 'Treat the user as not signed in and offer to sign in again.',
		page: 'handled',
		needs: { exchange: true, me: true },
		restartAllowed: true,
		fix: 'Handle 401 from /api/v3/me.json: drop the token and offer a fresh sign-in.'
	},
	{
		id: 'me-403',
		title: 'me.json 403',
		action: 'authorise',
		rule: 'me-403',
		how: 'The sandbox answers the app\'s me.json call 403, as when no User-Agent is sent.',
		should: 'Show a friendly error and log the cause; no server internals to the user.',
		page: 'handled',
		needs: { exchange: true, me: true },
		restartAllowed: false,
		fix: 'Handle a 403 from me.json without crashing: show the user an error and log it. The sandbox forced this one; from the service a 403 may occur when the call sends no User-Agent header (interface 7.3), so send one on every call.'
	},
	{
		id: 'me-404',
		title: 'me.json 404',
		action: 'authorise',
		rule: 'me-404',
		how: 'The sandbox answers the app\'s me.json call 404, as for a user who asked for account deletion.',
		should: 'Treat the account as gone (interface 7.3): sign the user out of it, no server error.',
		page: 'handled',
		needs: { exchange: true, me: true },
		restartAllowed: false,
		fix: 'Handle 404 from /api/v3/me.json: the user asked for account deletion; forget their verification data and say so.'
	},
	{
		id: 'no-active-verification',
		title: 'No active verification',
		action: 'authorise',
		rule: 'me-empty-verifications',
		how: 'The sandbox answers me.json 200 with an empty `verifications` list.',
		should: 'An empty list is a normal answer (interface 2.4: "always present; empty when the user has no active verification"): show that the user is not verified, as a normal page.',
		page: 'ok',
		needs: { exchange: true, me: true },
		restartAllowed: false,
		fix: READ_EMPTY_LIST
	},
	{
		id: 'group-key',
		title: 'The `group` key',
		action: 'authorise',
		rule: 'me-group-key',
		how: 'The sandbox answers me.json with each verification under the key `group` instead of `supergroup`.',
		should: 'Accept either key (interface 2.4): the user is verified just as in the success check.',
		page: 'ok',
		needs: { exchange: true, me: true },
		restartAllowed: false,
		fix: READ_EITHER_KEY
	}
];

export function findAppCheck(id: string): AppCheck | undefined {
	return APP_CHECKS.find((check) => check.id === id);
}

export const STAGE_WORDS: Record<'token' | 'me', string> = { token: 'the exchange at /oauth/token', me: 'the me.json call' };

/** The stage of the flow a rule answers: the token exchange or me.json. */
export function ruleStage(rule: OutcomeRule): 'token' | 'me' {
	return rule.startsWith('me-') ? 'me' : 'token';
}

/**
 * Whether the check's outcome leaves the user not signed in: its rule refused the exchange or me.json, so the
 * app's signed-in page (the success check's) is no answer to it.
 */
export function refusesSignIn(check: AppCheck): boolean {
	return check.rule !== null && check.page === 'handled';
}

/** What the check requires to pass, each a rule the judge enforces (judge.ts), for the report and the live page. */
export function requirements(check: AppCheck): string[] {
	const out: string[] = [];
	if (check.action === 'cancel') out.push('no call to /oauth/token');
	else if (check.id === 'success') out.push('exactly one exchange of the code at /oauth/token, answered 200');
	else if (check.needs.exchange) out.push('the code exchanged at /oauth/token');
	if (check.needs.me) out.push('me.json read with the access token');
	if (check.rule) out.push(`${STAGE_WORDS[ruleStage(check.rule)]} answered by the rule, and not retried until it succeeds (a retry that gets past the rule leaves the check inconclusive)`);
	out.push(
		check.page === 'ok'
			? 'a normal page: a status below 400, no error wording, no stack trace, no field printed as `undefined`'
			: "a page of the app's own: never a 5xx, never a framework's default error page, no stack trace"
	);
	if (refusesSignIn(check)) out.push("not the app's signed-in page: the page the success check ended on, whatever user it shows");
	if (!check.restartAllowed) out.push('no return to the sign-in page without the user asking (a loop)');
	return out;
}
