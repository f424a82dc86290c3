/**
 * The authorisation host's pages, rendered on the server. Every value from a request, a client or a user goes
 * through `html`, which escapes it. Pages take plain view data, so they can be rendered and tested on their own.
 */
import { errorRow, outcomeSpec, sandboxChoice, supergroupName, type OutcomeOfStage, type Supergroup } from '../../protocol';
import type { AuthorizationError } from '../authorize';
import { attr, html, type SafeHtml } from './html';
import { AUTH_CSS_PATH, AUTH_ICON_PATH, SHIELD_PATH } from './styles';
import { PROOF_KINDS } from './verification';

export const SERVICE_NAME = 'SBID Sign-in (sandbox)';

export interface Chrome {
	explorerOrigin: string;
}

/** The sign-in request as the pages show it. */
export interface RequestView {
	clientName: string;
	clientId: string;
	/** The workspace the client belongs to; null for the default one, whose ids carry no suffix. */
	workspace: string | null;
	supergroup: Supergroup;
	/** Where the user goes back to: the redirect URI's origin. */
	returnTo: string;
}

export interface SignedInView {
	login: string;
	signOutAction: string;
	csrf: string;
}

export interface DemoAccount {
	login: string;
	description: string;
}

const LOGO = html`<svg viewBox="0 0 32 32" aria-hidden="true" focusable="false"><path fill="currentColor" d="${SHIELD_PATH}"/></svg>`;

function layout(chrome: Chrome, title: string, page: string, content: SafeHtml): SafeHtml {
	return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>${title} · ${SERVICE_NAME}</title>
<link rel="stylesheet" href="${AUTH_CSS_PATH}">
<link rel="icon" href="${AUTH_ICON_PATH}" type="image/svg+xml">
</head>
<body>
<header class="brand">${LOGO}<span>SBID Sign-in</span><span class="badge" title="Sandbox: test accounts only">SANDBOX</span></header>
<main class="card" data-page="${page}">
${content}
</main>
<footer>A sandbox of the single sign-on and verification service, for testing integrations. No real accounts or
documents. Part of the <a href="${chrome.explorerOrigin}">SSO Flow Explorer</a>.</footer>
</body>
</html>
`;
}

function hiddenCsrf(csrf: string): SafeHtml {
	return html`<input type="hidden" name="csrf" value="${csrf}">`;
}

function signedInBar(signedIn: SignedInView): SafeHtml {
	return html`<div class="signed-in">Signed in as <strong class="fg">${signedIn.login}</strong> — not you?
<form method="post" action="${signedIn.signOutAction}">${hiddenCsrf(signedIn.csrf)}<button type="submit" class="link-button">Sign out</button></form></div>`;
}

function groupName(supergroup: Supergroup): string {
	return supergroupName(supergroup) ?? supergroup;
}

/** The Cancel of a page before the consent page: back to the app without a code, as the consent page's Cancel. */
function cancelForm(action: string, csrf: string, clientName: string): SafeHtml {
	return html`<form method="post" action="${action}" class="cancel">${hiddenCsrf(csrf)}<button type="submit" class="link-button">Cancel and return to ${clientName}</button></form>`;
}

export interface LoginView {
	action: string;
	/** Where this page's Cancel posts. */
	cancelAction: string;
	csrf: string;
	request: RequestView;
	/** The login typed last time, when the credentials were wrong. */
	failedLogin: string | null;
	demoAccounts: readonly DemoAccount[];
	demoPassword: string;
}

export function loginPage(chrome: Chrome, view: LoginView): SafeHtml {
	const failed = view.failedLogin !== null;
	const invalid = failed ? 'true' : 'false';
	const describedBy = failed ? 'login-error' : null;
	return layout(
		chrome,
		'Sign in',
		'login',
		html`<h1>Sign in</h1>
<p class="lead">to continue to <strong>${view.request.clientName}</strong> and confirm you are eligible as
<span class="chip">${groupName(view.request.supergroup)}</span></p>
${failed && html`<div class="alert" role="alert" id="login-error"><p><strong>Incorrect email or password.</strong> Check them and try again.</p></div>`}
<form method="post" action="${view.action}" novalidate>
${hiddenCsrf(view.csrf)}
<div class="field"><label for="login">Email</label>
<input id="login" name="login" type="email" autocomplete="username" spellcheck="false" autocapitalize="none" required
value="${view.failedLogin ?? ''}" aria-invalid="${invalid}" ${attr('aria-describedby', describedBy)} ${failed ? null : html`autofocus`}></div>
<div class="field"><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required
aria-invalid="${invalid}" ${attr('aria-describedby', describedBy)} ${failed ? html`autofocus` : null}></div>
<button type="submit" class="button">Sign in</button>
</form>
${cancelForm(view.cancelAction, view.csrf, view.request.clientName)}
<details>
<summary>Sandbox accounts</summary>
<p class="note">Test accounts of this sandbox. The password of each is <code>${view.demoPassword}</code>.</p>
<ul class="accounts">${view.demoAccounts.map((a) => html`<li><code>${a.login}</code><span>${a.description}</span></li>`)}</ul>
</details>`
	);
}

export interface VerifyView {
	action: string;
	/** Where this page's Cancel posts. */
	cancelAction: string;
	csrf: string;
	request: RequestView;
	signedIn: SignedInView;
	/** The expiry the verification will get (first day no longer valid). */
	expiresOn: string;
	/** True when the last submission chose no proof. */
	missingChoice: boolean;
}

export function verifyPage(chrome: Chrome, view: VerifyView): SafeHtml {
	const group = groupName(view.request.supergroup);
	return layout(
		chrome,
		'Verify your eligibility',
		'verify',
		html`<h1>Verify your eligibility</h1>
<p class="lead"><strong>${view.request.clientName}</strong> asks for proof that you belong to
<span class="chip">${group}</span>. You have no active verification in this group yet.</p>
${signedInBar(view.signedIn)}
${view.missingChoice && html`<div class="alert" role="alert" id="proof-error"><p><strong>Choose a kind of proof.</strong> Pick one of the options below.</p></div>`}
<form method="post" action="${view.action}">
${hiddenCsrf(view.csrf)}
<fieldset ${attr('aria-describedby', view.missingChoice ? 'proof-error' : null)}>
<legend>How would you like to prove it?</legend>
${PROOF_KINDS[view.request.supergroup].map(
	(kind, i) => html`<label class="choice"><input type="radio" name="proof" value="${kind.id}" ${i === 0 ? html`checked` : null}>
<span>${kind.label}<small>${kind.hint}</small></span></label>`
)}
</fieldset>
<p class="note">Simulated: nothing is uploaded or sent. You will be verified as ${group} until ${view.expiresOn}
(the first day the verification is no longer valid).</p>
<button type="submit" class="button">Submit proof</button>
</form>
${cancelForm(view.cancelAction, view.csrf, view.request.clientName)}`
	);
}

export interface ConsentView {
	action: string;
	csrf: string;
	request: RequestView;
	signedIn: SignedInView;
	/** The client's pending outcome rule for this page, if any (sandbox choice 'outcome-rules'). */
	outcomeRule: OutcomeOfStage<'authorise'> | null;
}

export function consentPage(chrome: Chrome, view: ConsentView): SafeHtml {
	const { request } = view;
	return layout(
		chrome,
		`Authorise ${request.clientName}`,
		'consent',
		html`<h1>Authorise ${request.clientName}?</h1>
<p class="lead">This application asks to confirm your <strong>${groupName(request.supergroup)}</strong> verification.</p>
${signedInBar(view.signedIn)}
<div class="client"><div class="avatar" aria-hidden="true">${initial(request.clientName)}</div>
<div><strong>${request.clientName}</strong><span class="note">Client ID <code>${request.clientId}</code></span></div></div>
${request.workspace && workspaceNote(request.workspace)}
<p class="fg">If you authorise it, ${request.clientName} will be able to see:</p>
<ul class="scopes">
<li>your SBID number, which identifies your account</li>
<li>your active verifications and when they expire</li>
</ul>
<p class="note">You will then return to <code>${request.returnTo}</code>.</p>
${view.outcomeRule && outcomeNotice(view.outcomeRule)}
<form method="post" action="${view.action}">
${hiddenCsrf(view.csrf)}
<div class="actions">
<button type="submit" name="decision" value="cancel" class="button secondary">Cancel</button>
<button type="submit" name="decision" value="authorize" class="button">Authorise</button>
</div>
</form>`
	);
}

/** Tells the tester that an outcome rule will decide what Authorise does, so the cancel that follows is no surprise. */
function outcomeNotice(outcome: OutcomeOfStage<'authorise'>): SafeHtml {
	return html`<div class="alert" role="status" data-outcome-rule="${outcome}"><p><strong>Outcome rule active (<code>${outcome}</code>).</strong>
${richText(outcomeSpec(outcome).answer)} It is used once.</p></div>`;
}

/** Why a workspace's client id ends in `~` and the workspace's id, said where the id is shown. */
function workspaceNote(workspace: string): SafeHtml {
	return html`<p class="note" data-testid="workspace-client-note">This client is in the sandbox workspace <code>${workspace}</code>.
A workspace's clients carry its id after <code>~</code>, so teams sharing one sandbox never collide.</p>`;
}

function initial(name: string): string {
	return (Array.from(name.trim())[0] ?? '?').toUpperCase();
}

/** Text with `backtick` spans, as the protocol model and the rules write them, shown with <code>. */
function richText(text: string): SafeHtml {
	return html`${text.split('`').map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part))}`;
}

/** The sign-in request cannot go on. The page never links or redirects to the request's redirect URI. */
export function requestErrorPage(chrome: Chrome, error: AuthorizationError): SafeHtml {
	return layout(
		chrome,
		'Sign-in error',
		'request-error',
		html`<h1>Sign-in link not valid</h1>
<div class="alert" role="alert" data-error="${error.kind === 'row' ? error.rowId : error.choiceId}"><p>${richText(error.message)}</p></div>
<p class="lead">You have not been sent back to the application, because the request could not be trusted.
Go back to the application and try again, or contact its developer.</p>
${error.kind === 'row' ? rowDetails(error) : choiceDetails(error)}
<p class="note"><a href="${chrome.explorerOrigin}/#step-link" data-testid="back-to-link-step">Back to the explorer's step 1, Build the link</a>,
where links to this sandbox are checked against its registration before they are opened.</p>`
	);
}

function rowDetails(error: Extract<AuthorizationError, { kind: 'row' }>): SafeHtml {
	const row = errorRow(error.rowId);
	const cause = row.causes.find((c) => c.id === error.causeId);
	return html`<details open>
<summary>For developers</summary>
<dl>
<dt>What was wrong</dt><dd>${richText(error.detail)}</dd>
${cause && html`<dt>How to fix it</dt><dd>${richText(cause.fix)}</dd>`}
<dt>Interface</dt><dd>Table ${row.table}, row <code>${row.id}</code></dd>
</dl>
</details>`;
}

function choiceDetails(error: Extract<AuthorizationError, { kind: 'choice' }>): SafeHtml {
	const choice = sandboxChoice(error.choiceId);
	return html`<details open>
<summary>For developers</summary>
<p class="note"><strong class="fg">Not described by the interface; the sandbox shows this.</strong>
Sandbox choice <code>${choice.id}</code>: ${richText(choice.sandbox)}</p>
</details>`;
}

/** Any other 4xx: a title, what went wrong, and what to do. */
export function problemPage(chrome: Chrome, problem: { title: string; message: string; action: string }): SafeHtml {
	return layout(
		chrome,
		problem.title,
		'problem',
		html`<h1>${problem.title}</h1>
<div class="alert" role="alert"><p>${problem.message}</p></div>
<p class="lead">${problem.action}</p>`
	);
}
