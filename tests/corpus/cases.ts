/**
 * The corpus's cases, the matrix's grading data (scripts/corpus.ts): each an app of tests/corpus/apps.ts with one
 * seeded bug (or none), the journey that shows it, the cause and the fix as the integrator would state them once
 * found, and what a right diagnosis must name. The patterns are written from the bug, not from the explorer's
 * output: `cause` must match what the verdict says happened and why (its sentence, cause and row), `fix` its fix.
 */
import type { OutcomeRule } from '../../src/lib/sandbox/embed';
import type { AppId } from './apps';

export interface Journey {
	/** What the user does on the consent page. */
	decision: 'authorise' | 'cancel';
	/** After landing on the app, the user opens the callback URL again (a reload, the back button). */
	reload?: boolean;
	/** An outcome rule set for the client before the sign-in (the sandbox's control API). */
	outcome?: OutcomeRule;
	/** Who signs in (a fixture user; student@example.com when absent). */
	login?: string;
	/** The key of me.json's verification elements for this client. */
	verificationKey?: 'supergroup' | 'group';
}

export interface CorpusCase {
	app: AppId;
	/** The app's BUG value; `none`: the correct app, which must get no finding. */
	bug: string;
	journey: Journey;
	/** The cause and the fix as a user states them. */
	cause: string;
	fix: string;
	/** A right diagnosis names the cause (any pattern, in the verdict's what, cause or row) and the fix (any, in its fix). */
	expect: { cause: RegExp[]; fix: RegExp[] } | null;
}

const SIGN_IN: Journey = { decision: 'authorise' };
const CORRECT = { cause: 'Nothing is wrong.', fix: 'Nothing to fix.', expect: null };

/** The correct app through the journeys the bugs use: none of them may raise a finding. */
const correctJourneys = (app: AppId): CorpusCase[] => [
	{ app, bug: 'none', journey: SIGN_IN, ...CORRECT },
	{ app, bug: 'none', journey: { decision: 'cancel' }, ...CORRECT },
	{ app, bug: 'none', journey: { decision: 'authorise', reload: true }, ...CORRECT },
	{ app, bug: 'none', journey: { decision: 'authorise', outcome: 'me-group-key' }, ...CORRECT },
	{ app, bug: 'none', journey: { decision: 'authorise', login: 'deleted@example.com' }, ...CORRECT }
];

// Patterns shared by several bugs.
const REDIRECT_URI = /redirect_uri/i;
const STATE = /\bstate\b/i;
const CANCEL = /cancel|no code|without (a )?code|declin/i;
const USER_AGENT = /user-agent/i;
const GROUP_KEY = /\bgroup\b.*key|key.*\bgroup\b|`group`/i;
const CRASH_AFTER_ME = /me\.json.*(succeeded|200|answered)|handl|your app('s)? (code|callback)|callback page/i;

export const CASES: CorpusCase[] = [
	// node:http + fetch
	...correctJourneys('node-fetch'),
	{
		app: 'node-fetch',
		bug: 'state-required',
		journey: SIGN_IN,
		cause: 'The app puts a state on the link and refuses the callback without it; the service never returns state.',
		fix: 'Do not send or check state (5.6); protect the callback another way (a session cookie).',
		expect: { cause: [STATE], fix: [STATE] }
	},
	{
		app: 'node-fetch',
		bug: 'cancel-as-error',
		journey: { decision: 'cancel' },
		cause: 'A cancel (a redirect without code) is exchanged anyway and the app crashes on the token error.',
		fix: 'When the callback has no code, show a "sign-in cancelled" page; do not call the token endpoint.',
		expect: { cause: [CANCEL], fix: [CANCEL] }
	},
	{
		app: 'node-fetch',
		bug: 'redirect-uri-differs',
		journey: SIGN_IN,
		cause: 'The exchange sends http://127.0.0.1:PORT/callback while the link sent http://localhost:PORT/callback.',
		fix: 'Send exactly the redirect_uri of the link at the token endpoint.',
		expect: { cause: [REDIRECT_URI], fix: [REDIRECT_URI] }
	},
	{
		app: 'node-fetch',
		bug: 'no-user-agent',
		journey: SIGN_IN,
		cause: 'me.json is called without a User-Agent header and answers 403.',
		fix: 'Send a User-Agent header with the me.json call.',
		expect: { cause: [USER_AGENT, /403/], fix: [USER_AGENT] }
	},
	{
		app: 'node-fetch',
		bug: 'group-key-crash',
		journey: { decision: 'authorise', outcome: 'me-group-key' },
		cause: 'The app reads verifications[].supergroup only and crashes (500) when the service sends the key as `group`.',
		fix: 'Read either key: v.supergroup ?? v.group.',
		expect: { cause: [GROUP_KEY], fix: [GROUP_KEY] }
	},
	{
		app: 'node-fetch',
		bug: 'token-as-json',
		journey: SIGN_IN,
		cause: 'The token request is sent as a JSON body, which the token endpoint does not read.',
		fix: 'Send the parameters in the query string (or a form body), not JSON.',
		expect: { cause: [/json/i], fix: [/query|form/i] }
	},
	{
		app: 'node-fetch',
		bug: 'secret-in-link',
		journey: SIGN_IN,
		cause: 'The sign-in link carries client_secret, so every browser sees it.',
		fix: 'Remove client_secret from the link and rotate the secret.',
		expect: { cause: [/secret/i], fix: [/secret/i] }
	},
	{
		app: 'node-fetch',
		bug: 'exchange-twice',
		journey: SIGN_IN,
		cause: 'The app exchanges the code twice; the second exchange gets invalid_grant and the app shows an error.',
		fix: 'Exchange each code once and keep the token.',
		expect: { cause: [/twice|again|already used|second|reuse/i], fix: [/once|twice|again|reuse/i] }
	},
	{
		app: 'node-fetch',
		bug: 'token-to-browser',
		journey: SIGN_IN,
		cause: 'The app puts the access token into the URL it sends the browser to.',
		fix: 'Keep the access token on the server; give the browser a session cookie.',
		expect: { cause: [/access.?token|token/i], fix: [/server|browser/i] }
	},
	{
		app: 'node-fetch',
		bug: 'bearer-secret',
		journey: SIGN_IN,
		cause: 'The client secret alone is sent as Authorization: Bearer, which is not the credential format (invalid_client).',
		fix: 'Send client_id and client_secret as parameters, or Basic/Bearer base64(client_id:client_secret).',
		expect: { cause: [/invalid_client|credential|authori[sz]ation header/i], fix: [/client_id|base64|basic/i] }
	},
	// express + passport-oauth2 (tests/apps/passport-app): its naive variant is passport-oauth2's README.
	{ app: 'node-passport', bug: 'none', journey: SIGN_IN, ...CORRECT },
	{ app: 'node-passport', bug: 'none', journey: { decision: 'cancel' }, ...CORRECT },
	{
		app: 'node-passport',
		bug: 'cancel-loop',
		journey: { decision: 'cancel' },
		cause: 'On a callback without code passport-oauth2 starts a new sign-in, so a cancel loops back to the sign-in page.',
		fix: 'Handle the callback without code before passport: show a cancelled page.',
		expect: { cause: [CANCEL, /loop|again/i], fix: [CANCEL] }
	},
	{
		app: 'node-passport',
		bug: 'state-required',
		journey: SIGN_IN,
		cause: 'passport-oauth2 with state: true refuses the callback, since the service never returns state.',
		fix: 'Turn state off (state: false); the service does not use it.',
		expect: { cause: [STATE], fix: [STATE] }
	},
	{
		app: 'node-passport',
		bug: 'redirect-next-dropped',
		journey: SIGN_IN,
		cause: 'The link\'s redirect_uri carries ?next=/home, the exchange sends the plain callback URL: invalid_grant.',
		fix: 'Send the same redirect_uri, with its query, at the exchange.',
		expect: { cause: [REDIRECT_URI], fix: [REDIRECT_URI] }
	},
	{
		app: 'node-passport',
		bug: 'me-404-crash',
		journey: { decision: 'authorise', login: 'deleted@example.com' },
		cause: 'me.json answers 404 for an account that asked for deletion and the app shows a 500 with a stack trace.',
		fix: 'Handle me.json\'s 404: tell the user the account is closed.',
		expect: { cause: [/404|delet/i], fix: [/404|delet|account/i] }
	}
];

/** A case's name in the table: app, bug, and what the journey does beyond a plain sign-in. */
export function caseName(c: CorpusCase): string {
	const j = c.journey;
	const extra = [j.decision === 'cancel' ? 'cancel' : '', j.reload ? 'reload' : '', j.outcome ?? '', j.login ? j.login.split('@')[0]! : ''].filter(Boolean);
	return `${c.app}/${c.bug}${extra.length ? ` (${extra.join(', ')})` : ''}`;
}
