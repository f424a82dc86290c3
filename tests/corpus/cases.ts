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
	/**
	 * Where the bug shows, written from the bug. `server`: in the app's server's requests (the exchange, me.json),
	 * which a recording of the browser alone cannot show. `handling`: in how the app handles an answer the service
	 * gave as specified or as asked (its requests are right, its page fails), which neither the browser's recording
	 * alone (a failed page, not why) nor the sandbox's log alone (right requests) shows. `page`: in the app's page
	 * (what it shows the user or hands the browser) with every request to the service right or absent, which the
	 * sandbox's log alone never holds and the browser's recording does. Absent: the browser's side.
	 */
	side?: 'server' | 'handling' | 'page';
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
const EMPTY = /empty|no (active )?verification/i;
const ME_401 = /me\.json.{0,60}401|401.{0,60}me\.json|access token.{0,40}(invalid|not accepted|refused)/i;
const SIGN_IN_AGAIN = /sign.{0,15}in again|new (access )?token|401/i;
const TWICE = /twice|already (used|exchanged)|second (exchange|time)|more than once|works once/i;
const JSON_BODY = /JSON body|as JSON|in JSON|application\/json|content-type/i;
const FORM_OR_QUERY = /query string|form body|form-encoded|x-www-form-urlencoded|bodyFormat|params=/i;
const TOKEN_IN_BROWSER = /access.?token.{0,60}(browser|page|URL|fragment|client|localStorage)|(browser|page|URL|fragment|localStorage).{0,60}access.?token/i;
const KEEP_ON_SERVER = /on (the|your) server|server.?side|never.{0,40}browser|out of the browser/i;
const SECRET_IN_LINK = /secret.{0,60}(link|URL|browser)|(link|URL).{0,60}secret/i;
const REMOVE_SECRET = /rotate|remove.{0,40}secret|secret.{0,40}(out of|from) the link|never.{0,40}(link|browser)/i;
const ME_404 = /me\.json.{0,60}404|404.{0,60}me\.json|delet/i;
const ME_403 = /me\.json.{0,60}403|403.{0,60}me\.json/i;
const HANDLE = /handl|error page|friendly|show (a|the user)/i;

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
		side: 'server',
		journey: SIGN_IN,
		cause: 'The exchange sends http://127.0.0.1:PORT/callback while the link sent http://localhost:PORT/callback.',
		fix: 'Send exactly the redirect_uri of the link at the token endpoint.',
		expect: { cause: [REDIRECT_URI], fix: [REDIRECT_URI] }
	},
	{
		app: 'node-fetch',
		bug: 'no-user-agent',
		side: 'server',
		journey: SIGN_IN,
		cause: 'me.json is called without a User-Agent header and answers 403.',
		fix: 'Send a User-Agent header with the me.json call.',
		expect: { cause: [USER_AGENT], fix: [USER_AGENT] }
	},
	{
		app: 'node-fetch',
		bug: 'group-key-crash',
		side: 'handling',
		journey: { decision: 'authorise', outcome: 'me-group-key' },
		cause: 'The app reads verifications[].supergroup only and crashes (500) when the service sends the key as `group`.',
		fix: 'Read either key: v.supergroup ?? v.group.',
		expect: { cause: [GROUP_KEY], fix: [GROUP_KEY] }
	},
	{
		app: 'node-fetch',
		bug: 'token-as-json',
		side: 'server',
		journey: SIGN_IN,
		cause: 'The token request is sent as a JSON body, which the token endpoint does not read.',
		fix: 'Send the parameters in the query string (or a form body), not JSON.',
		expect: { cause: [JSON_BODY], fix: [FORM_OR_QUERY] }
	},
	{
		app: 'node-fetch',
		bug: 'secret-in-link',
		journey: SIGN_IN,
		cause: 'The sign-in link carries client_secret, so every browser sees it.',
		fix: 'Remove client_secret from the link and rotate the secret.',
		expect: { cause: [SECRET_IN_LINK], fix: [REMOVE_SECRET] }
	},
	{
		app: 'node-fetch',
		bug: 'exchange-twice',
		side: 'server',
		journey: SIGN_IN,
		cause: 'The app exchanges the code twice; the second exchange gets invalid_grant and the app shows an error.',
		fix: 'Exchange each code once and keep the token.',
		expect: { cause: [TWICE], fix: [/once/i] }
	},
	{
		app: 'node-fetch',
		bug: 'token-to-browser',
		side: 'page',
		journey: SIGN_IN,
		cause: 'The app puts the access token into the URL it sends the browser to.',
		fix: 'Keep the access token on the server; give the browser a session cookie.',
		expect: { cause: [TOKEN_IN_BROWSER], fix: [KEEP_ON_SERVER] }
	},
	{
		app: 'node-fetch',
		bug: 'bearer-secret',
		side: 'server',
		journey: SIGN_IN,
		cause: 'The client secret alone is sent as Authorization: Bearer, which is not the credential format (invalid_client).',
		fix: 'Send client_id and client_secret as parameters, or Basic/Bearer base64(client_id:client_secret).',
		expect: { cause: [/invalid_client|credential|authori[sz]ation header/i], fix: [/base64|basic|as parameters/i] }
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
		expect: { cause: [CANCEL, /loop|new sign-in|back to the (sign-in|link)/i], fix: [CANCEL] }
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
		side: 'server',
		journey: SIGN_IN,
		cause: 'The link\'s redirect_uri carries ?next=/home, the exchange sends the plain callback URL: invalid_grant.',
		fix: 'Send the same redirect_uri, with its query, at the exchange.',
		expect: { cause: [REDIRECT_URI], fix: [REDIRECT_URI] }
	},
	{
		app: 'node-passport',
		bug: 'me-404-crash',
		side: 'handling',
		journey: { decision: 'authorise', login: 'deleted@example.com' },
		cause: 'me.json answers 404 for an account that asked for deletion and the app shows a 500 with a stack trace.',
		fix: 'Handle me.json\'s 404: tell the user the account is closed.',
		expect: { cause: [ME_404], fix: [/404|delet|closed/i] }
	},
	// Flask + requests, in Flask's debug mode (a crash shows the Werkzeug debugger, with its assets)
	...correctJourneys('python-requests'),
	{
		app: 'python-requests',
		bug: 'group-key-crash',
		side: 'handling',
		journey: { decision: 'authorise', outcome: 'me-group-key' },
		cause: 'The app reads v["supergroup"] and crashes with a KeyError (500) when the service sends the key as `group`.',
		fix: 'Read either key: v.get("supergroup") or v.get("group").',
		expect: { cause: [GROUP_KEY], fix: [GROUP_KEY] }
	},
	{
		app: 'python-requests',
		bug: 'empty-verifications-crash',
		side: 'handling',
		journey: { decision: 'authorise', outcome: 'me-empty-verifications' },
		cause: 'The app reads verifications[0] and crashes with an IndexError (500) when the list is empty.',
		fix: 'Handle an empty verifications list: the user has no active verification.',
		expect: { cause: [EMPTY], fix: [EMPTY] }
	},
	{
		app: 'python-requests',
		bug: 'me-404-crash',
		side: 'handling',
		journey: { decision: 'authorise', login: 'deleted@example.com' },
		cause: 'me.json answers 404 for an account that asked for deletion; raise_for_status() turns it into a 500.',
		fix: 'Handle me.json\'s 404: tell the user the account is closed.',
		expect: { cause: [ME_404], fix: [/404|delet|closed/i] }
	},
	{
		app: 'python-requests',
		bug: 'me-401-crash',
		side: 'handling',
		journey: { decision: 'authorise', outcome: 'me-401' },
		cause: 'me.json answers 401 and raise_for_status() turns it into a 500.',
		fix: 'Handle me.json\'s 401: sign the user in again with a new token.',
		expect: { cause: [ME_401], fix: [SIGN_IN_AGAIN] }
	},
	{
		app: 'python-requests',
		bug: 'redirect-uri-missing',
		side: 'server',
		journey: SIGN_IN,
		cause: 'The exchange sends no redirect_uri; the token endpoint refuses it and raise_for_status() gives a 500.',
		fix: 'Send the link\'s redirect_uri at the token endpoint.',
		expect: { cause: [REDIRECT_URI], fix: [REDIRECT_URI] }
	},
	{
		app: 'python-requests',
		bug: 'cancel-loop',
		journey: { decision: 'cancel' },
		cause: 'On a callback without code the app redirects to /login, so a cancel loops back to the sign-in page.',
		fix: 'Show a "sign-in cancelled" page when the callback has no code.',
		expect: { cause: [CANCEL, /loop|new sign-in|back to the (sign-in|link)/i], fix: [CANCEL] }
	},
	{
		app: 'python-requests',
		bug: 'token-get',
		side: 'server',
		journey: SIGN_IN,
		cause: 'The token request is sent as GET; the token endpoint takes POST.',
		fix: 'POST to /oauth/token.',
		expect: { cause: [/\bGET\b|method/], fix: [/POST/] }
	},
	// Flask + Authlib
	{ app: 'python-authlib', bug: 'none', journey: SIGN_IN, ...CORRECT },
	{ app: 'python-authlib', bug: 'none', journey: { decision: 'cancel' }, ...CORRECT },
	{ app: 'python-authlib', bug: 'none', journey: { decision: 'authorise', outcome: 'me-404' }, ...CORRECT },
	{
		app: 'python-authlib',
		bug: 'registry-state',
		journey: SIGN_IN,
		cause: 'Authlib\'s Flask client checks the state it put on the link; the service never returns state, so it raises MismatchingStateError (500).',
		fix: 'Do not rely on state (the service does not use it): exchange the code with an OAuth2Session, or check the sign-in another way.',
		expect: { cause: [STATE], fix: [STATE] }
	},
	{
		app: 'python-authlib',
		bug: 'no-user-agent-header',
		side: 'server',
		journey: SIGN_IN,
		cause: 'The User-Agent comes from an unset setting and is sent blank; me.json answers 403 and the app shows "could not tell us who you are".',
		fix: 'Send a User-Agent header with the me.json call.',
		expect: { cause: [USER_AGENT], fix: [USER_AGENT] }
	},
	{
		app: 'python-authlib',
		bug: 'me-403-crash',
		side: 'handling',
		journey: { decision: 'authorise', outcome: 'me-403' },
		cause: 'me.json answers 403 and raise_for_status() turns it into a 500.',
		fix: 'Handle me.json\'s 403: send a User-Agent, and show a page saying the service refused.',
		expect: { cause: [ME_403], fix: [USER_AGENT, HANDLE] }
	},
	{
		app: 'python-authlib',
		bug: 'cancel-as-error',
		journey: { decision: 'cancel' },
		cause: 'A cancel (no code) goes to fetch_token anyway; the token error is raised as a 500.',
		fix: 'When the callback has no code, show a "sign-in cancelled" page; do not call the token endpoint.',
		expect: { cause: [CANCEL], fix: [CANCEL] }
	},
	// Go, golang.org/x/oauth2
	...correctJourneys('go-oauth2'),
	{
		app: 'go-oauth2',
		bug: 'state-check',
		journey: SIGN_IN,
		cause: 'The app puts the tutorial\'s state on the link and answers "invalid oauth state" (400): the service never returns state.',
		fix: 'Pass "" to AuthCodeURL and do not check state.',
		expect: { cause: [STATE], fix: [STATE] }
	},
	{
		app: 'go-oauth2',
		bug: 'cancel-as-error',
		journey: { decision: 'cancel' },
		cause: 'A cancel (no code) is exchanged anyway and the app answers 500 with the token error.',
		fix: 'When the callback has no code, show a "sign-in cancelled" page; do not call Exchange.',
		expect: { cause: [CANCEL], fix: [CANCEL] }
	},
	{
		app: 'go-oauth2',
		bug: 'supergroup-only',
		side: 'handling',
		journey: { decision: 'authorise', outcome: 'me-group-key' },
		cause: 'The app reads only the `supergroup` key; with the `group` key it finds no group and refuses a verified user (403).',
		fix: 'Read either key: supergroup, else group.',
		expect: { cause: [GROUP_KEY], fix: [GROUP_KEY] }
	},
	{
		app: 'go-oauth2',
		bug: 'empty-verifications-panic',
		side: 'server',
		journey: { decision: 'authorise', outcome: 'me-empty-verifications' },
		cause: 'The app reads Verifications[0] and panics on an empty list: the browser gets no answer at all.',
		fix: 'Handle an empty verifications list: the user has no active verification.',
		expect: { cause: [EMPTY], fix: [EMPTY] }
	},
	{
		app: 'go-oauth2',
		bug: 'me-401-unhandled',
		side: 'handling',
		journey: { decision: 'authorise', outcome: 'me-401' },
		cause: 'The app decodes me.json\'s 401 answer as a profile and fails with a 500.',
		fix: 'Check me.json\'s status: on 401 sign the user in again.',
		expect: { cause: [ME_401], fix: [SIGN_IN_AGAIN] }
	},
	// PHP, curl
	...correctJourneys('php-curl'),
	{
		app: 'php-curl',
		bug: 'no-user-agent',
		side: 'server',
		journey: SIGN_IN,
		cause: 'PHP curl sends no User-Agent by default; me.json answers 403.',
		fix: 'Set CURLOPT_USERAGENT on the me.json call.',
		expect: { cause: [USER_AGENT], fix: [USER_AGENT] }
	},
	{
		app: 'php-curl',
		bug: 'reload-crash',
		side: 'handling',
		journey: { decision: 'authorise', reload: true },
		cause: 'On a reload the code is exchanged again (invalid_grant) and the app, not checking the answer, dies with a 500.',
		fix: 'Check the token answer: on invalid_grant show a page that offers to sign in again.',
		expect: { cause: [TWICE, /reload/i], fix: [/reload|exchange each code once/i, HANDLE] }
	},
	{
		app: 'php-curl',
		bug: 'invalid-client-crash',
		side: 'handling',
		journey: { decision: 'authorise', outcome: 'token-invalid-client' },
		cause: 'The token endpoint answers invalid_client and the app, not checking the answer, dies with a 500.',
		fix: 'Check the token answer: on invalid_client show an error page (and check the client secret).',
		expect: { cause: [/invalid_client/], fix: [HANDLE] }
	},
	{
		app: 'php-curl',
		bug: 'link-unencoded',
		journey: SIGN_IN,
		cause: 'The link is concatenated by hand: the redirect URI\'s own &next= becomes a parameter of the link, so the exchange\'s redirect_uri differs (invalid_grant).',
		fix: 'Encode the redirect_uri as a URI component in the link (http_build_query / rawurlencode).',
		expect: { cause: [/encod/i], fix: [/encod/i] }
	},
	{
		app: 'php-curl',
		bug: 'redirect-host-unregistered',
		journey: SIGN_IN,
		cause: 'The link\'s redirect_uri is on 127.0.0.1, the registered one on localhost: the sign-in page says the redirect URI is not valid.',
		fix: 'Use the registered redirect URI (http://localhost:PORT/callback) in the link, or register the one used.',
		expect: { cause: [REDIRECT_URI, /redirect uri/i], fix: [/regist/i] }
	},
	{
		app: 'php-curl',
		bug: 'token-in-page',
		side: 'page',
		journey: SIGN_IN,
		cause: 'The app writes the access token into the signed-in page (localStorage), so the browser holds it.',
		fix: 'Keep the access token on the server.',
		expect: { cause: [TOKEN_IN_BROWSER], fix: [KEEP_ON_SERVER] }
	},
	// A single-page app with its own API: the page posts the code to POST /api/session
	{ app: 'node-spa', bug: 'none', journey: SIGN_IN, ...CORRECT },
	{ app: 'node-spa', bug: 'none', journey: { decision: 'cancel' }, ...CORRECT },
	{ app: 'node-spa', bug: 'none', journey: { decision: 'authorise', outcome: 'me-group-key' }, ...CORRECT },
	{
		app: 'node-spa',
		bug: 'double-post',
		journey: SIGN_IN,
		cause: 'The page posts the code to /api/session twice (the effect runs twice); the second exchange gets invalid_grant and its error is shown.',
		fix: 'Post the code once (guard the effect) and exchange each code once.',
		expect: { cause: [TWICE], fix: [/once/i] }
	},
	{
		app: 'node-spa',
		bug: 'cancel-null-code',
		journey: { decision: 'cancel' },
		cause: 'After a cancel the page posts {code: null} to its API, which calls the token endpoint and shows "Error".',
		fix: 'When the URL has no code, show "sign-in cancelled" and do not call the API.',
		expect: { cause: [CANCEL], fix: [CANCEL] }
	},
	{
		app: 'node-spa',
		bug: 'token-in-api-answer',
		side: 'page',
		journey: SIGN_IN,
		cause: 'The app\'s API returns the access token to the page, which keeps it in localStorage.',
		fix: 'Keep the access token on the server; answer the page with the user\'s data only.',
		expect: { cause: [TOKEN_IN_BROWSER], fix: [KEEP_ON_SERVER] }
	},
	// Sinatra + omniauth-oauth2
	{ app: 'ruby-omniauth', bug: 'none', journey: SIGN_IN, ...CORRECT },
	{ app: 'ruby-omniauth', bug: 'none', journey: { decision: 'cancel' }, ...CORRECT },
	{ app: 'ruby-omniauth', bug: 'none', journey: { decision: 'authorise', outcome: 'me-group-key' }, ...CORRECT },
	{
		app: 'ruby-omniauth',
		bug: 'state-default',
		journey: SIGN_IN,
		cause: 'omniauth-oauth2 checks the state it put on the link (provider_ignores_state is false); the service never returns state: csrf_detected.',
		fix: 'Set provider_ignores_state: true; the service does not use state.',
		expect: { cause: [STATE], fix: [STATE] }
	},
	{
		app: 'ruby-omniauth',
		bug: 'callback-url-query',
		side: 'server',
		journey: SIGN_IN,
		cause: 'omniauth\'s callback_url carries the callback\'s query (?code=…) into the exchange\'s redirect_uri, which then differs from the link\'s: invalid_grant.',
		fix: 'Override callback_url to full_host + callback_path, so the exchange sends the link\'s redirect_uri.',
		expect: { cause: [REDIRECT_URI], fix: [REDIRECT_URI] }
	},
	{
		app: 'ruby-omniauth',
		bug: 'cancel-no-guard',
		journey: { decision: 'cancel' },
		cause: 'A cancel (no code) goes through omniauth, which requests a token without code and shows a failure page.',
		fix: 'Answer a callback without code with a "sign-in cancelled" page before omniauth.',
		expect: { cause: [CANCEL], fix: [CANCEL] }
	},
	{
		app: 'ruby-omniauth',
		bug: 'group-key-crash',
		side: 'handling',
		journey: { decision: 'authorise', outcome: 'me-group-key' },
		cause: 'The strategy\'s info block calls v.fetch("supergroup") and raises KeyError (500) when the key is `group`.',
		fix: 'Read either key: v["supergroup"] || v["group"].',
		expect: { cause: [GROUP_KEY], fix: [GROUP_KEY] }
	},
	// simple-oauth2
	{ app: 'node-simple-oauth2', bug: 'none', journey: SIGN_IN, ...CORRECT },
	{ app: 'node-simple-oauth2', bug: 'none', journey: { decision: 'authorise', outcome: 'token-invalid-grant' }, ...CORRECT },
	{
		app: 'node-simple-oauth2',
		bug: 'json-body',
		side: 'server',
		journey: SIGN_IN,
		cause: 'simple-oauth2 is set to bodyFormat: "json", so the token request is a JSON body the token endpoint does not read.',
		fix: 'Use bodyFormat: "form" (or send the parameters in the query string).',
		expect: { cause: [JSON_BODY], fix: [FORM_OR_QUERY] }
	},
	{
		app: 'node-simple-oauth2',
		bug: 'redirect-uri-omitted',
		side: 'server',
		journey: SIGN_IN,
		cause: 'getToken is called with the code only: the exchange sends no redirect_uri.',
		fix: 'Pass the link\'s redirect_uri to getToken.',
		expect: { cause: [REDIRECT_URI], fix: [REDIRECT_URI] }
	},
	{
		app: 'node-simple-oauth2',
		bug: 'scope-and-state',
		journey: SIGN_IN,
		cause: 'The app copies the README\'s scope and state onto the link and refuses the callback without state.',
		fix: 'Drop scope and state from the link (5.6) and do not check state.',
		expect: { cause: [STATE], fix: [STATE] }
	},
	{
		app: 'node-simple-oauth2',
		bug: 'expired-token-retry',
		side: 'server',
		journey: SIGN_IN,
		cause: 'A wrong "token expired" check exchanges the same code a second time; invalid_grant is shown as an error.',
		fix: 'Exchange each code once; refresh with the refresh token, never the code.',
		expect: { cause: [TWICE], fix: [/once/i] }
	},
	// Flask + requests-oauthlib
	{ app: 'python-oauthlib', bug: 'none', journey: SIGN_IN, ...CORRECT },
	{ app: 'python-oauthlib', bug: 'none', journey: { decision: 'cancel' }, ...CORRECT },
	{
		app: 'python-oauthlib',
		bug: 'docs-state',
		journey: SIGN_IN,
		cause: 'The docs\' callback checks the session\'s state against the redirect\'s; the service never returns state: MismatchingStateError (500).',
		fix: 'Exchange with code= instead of authorization_response=, and do not check state.',
		expect: { cause: [STATE], fix: [STATE] }
	},
	{
		app: 'python-oauthlib',
		bug: 'empty-verifications-crash',
		side: 'handling',
		journey: { decision: 'authorise', outcome: 'me-empty-verifications' },
		cause: 'The app reads verifications[0] and crashes with an IndexError (500) when the list is empty.',
		fix: 'Handle an empty verifications list: the user has no active verification.',
		expect: { cause: [EMPTY], fix: [EMPTY] }
	},
	{
		app: 'python-oauthlib',
		bug: 'me-404-crash',
		side: 'handling',
		journey: { decision: 'authorise', outcome: 'me-404' },
		cause: 'me.json answers 404 (account deletion asked) and raise_for_status() turns it into a 500.',
		fix: 'Handle me.json\'s 404: tell the user the account is closed.',
		expect: { cause: [ME_404], fix: [/404|delet|closed/i] }
	},
	// Flask + httpx
	{ app: 'python-httpx', bug: 'none', journey: SIGN_IN, ...CORRECT },
	{ app: 'python-httpx', bug: 'none', journey: { decision: 'authorise', outcome: 'me-empty-verifications' }, ...CORRECT },
	{
		app: 'python-httpx',
		bug: 'json-token-request',
		side: 'server',
		journey: SIGN_IN,
		cause: 'The token request is sent with json=, a JSON body the token endpoint does not read.',
		fix: 'Send the parameters in the query string (params=) or as a form.',
		expect: { cause: [JSON_BODY], fix: [FORM_OR_QUERY] }
	},
	{
		app: 'python-httpx',
		bug: 'redirect-uri-trailing-slash',
		side: 'server',
		journey: SIGN_IN,
		cause: 'The exchange sends the callback URL with a trailing slash, which differs from the link\'s: invalid_grant.',
		fix: 'Send exactly the redirect_uri of the link at the token endpoint.',
		expect: { cause: [REDIRECT_URI], fix: [REDIRECT_URI] }
	},
	{
		app: 'python-httpx',
		bug: 'grant-code-as-token',
		side: 'server',
		journey: SIGN_IN,
		cause: 'The app calls me.json with the grant code instead of the access token: 401.',
		fix: 'Call me.json with the access_token of the token response.',
		expect: { cause: [/grant code (instead|in place|as)|code instead of|not an access token|code.{0,40}me\.json/i], fix: [/access.?token/i] }
	},
	{
		app: 'python-httpx',
		bug: 'secret-in-link',
		journey: SIGN_IN,
		cause: 'The sign-in link carries client_secret, so every browser sees it.',
		fix: 'Remove client_secret from the link and rotate the secret.',
		expect: { cause: [SECRET_IN_LINK], fix: [REMOVE_SECRET] }
	},
	// openid-client
	{ app: 'node-openid-client', bug: 'none', journey: SIGN_IN, ...CORRECT },
	{ app: 'node-openid-client', bug: 'none', journey: { decision: 'cancel' }, ...CORRECT },
	{
		app: 'node-openid-client',
		bug: 'readme-state',
		journey: SIGN_IN,
		cause: 'The app sends a state and passes expectedState to authorizationCodeGrant; the service never returns state, so openid-client throws (500).',
		fix: 'Send no state and pass no expectedState; the service does not use state.',
		expect: { cause: [STATE], fix: [STATE] }
	},
	{
		app: 'node-openid-client',
		bug: 'current-url-host',
		side: 'server',
		journey: SIGN_IN,
		cause: 'The current URL is rebuilt on 127.0.0.1, so the exchange\'s redirect_uri differs from the link\'s localhost one: invalid_grant.',
		fix: 'Build the current URL from the registered callback origin, so the exchange sends the link\'s redirect_uri.',
		expect: { cause: [REDIRECT_URI], fix: [REDIRECT_URI] }
	},
	{
		app: 'node-openid-client',
		bug: 'cancel-as-error',
		side: 'page',
		journey: { decision: 'cancel' },
		cause: 'A cancel (no code) goes to authorizationCodeGrant, which throws; the app answers 500.',
		fix: 'When the callback has no code, show a "sign-in cancelled" page.',
		expect: { cause: [CANCEL], fix: [CANCEL] }
	}
];

/** A case's name in the table: app, bug, and what the journey does beyond a plain sign-in. */
export function caseName(c: CorpusCase): string {
	const j = c.journey;
	const extra = [j.decision === 'cancel' ? 'cancel' : '', j.reload ? 'reload' : '', j.outcome ?? '', j.login ? j.login.split('@')[0]! : ''].filter(Boolean);
	return `${c.app}/${c.bug}${extra.length ? ` (${extra.join(', ')})` : ''}`;
}
