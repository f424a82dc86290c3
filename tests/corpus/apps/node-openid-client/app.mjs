// An integrator's sign-in with openid-client (its README's authorization code flow, with the server's metadata
// given by hand: the service publishes no discovery document), written from the interface. Configured by the
// environment (AUTH_URL, ACCOUNTS_URL, CLIENT_ID, CLIENT_SECRET, PORT, SUPERGROUP); BUG selects a seeded bug
// (tests/corpus/cases.ts), `none` is the correct app.
import { createServer } from 'node:http';
import * as client from 'openid-client';

const need = (name) => process.env[name] ?? (() => { throw new Error(`Set ${name}`); })();
const PORT = Number(need('PORT'));
const ACCOUNTS = need('ACCOUNTS_URL');
const SUPERGROUP = process.env.SUPERGROUP ?? 'student';
const BUG = process.env.BUG ?? 'none';
const BUGS = ['none', 'readme-state', 'current-url-host', 'cancel-as-error'];
if (!BUGS.includes(BUG)) throw new Error(`BUG is one of ${BUGS.join(', ')}`);
const CALLBACK = `http://localhost:${PORT}/callback`;
const STATE = 'st4te';

const config = new client.Configuration(
	{ issuer: ACCOUNTS, authorization_endpoint: `${need('AUTH_URL')}/sso/${SUPERGROUP}`, token_endpoint: `${ACCOUNTS}/oauth/token` },
	need('CLIENT_ID'),
	need('CLIENT_SECRET'),
	client.ClientSecretPost(need('CLIENT_SECRET'))
);
client.allowInsecureRequests(config); // http://localhost in development

const page = (status, title, body) => [status, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}<p><a href="/login">Sign in again</a></p></main></body></html>`];

async function callback(req, url) {
	if (!url.searchParams.get('code') && BUG !== 'cancel-as-error') return page(200, 'Sign-in cancelled', '<p>You cancelled the sign-in. Nothing was shared.</p>');
	// The README builds the current URL from the request; behind a proxy or with the wrong host it is not the link's.
	const current = BUG === 'current-url-host' ? new URL(req.url, `http://127.0.0.1:${PORT}`) : url;
	let tokens;
	try {
		tokens = await client.authorizationCodeGrant(config, current, BUG === 'readme-state' ? { expectedState: STATE } : {});
	} catch (error) {
		if (BUG !== 'none') throw error;
		return page(400, 'Sign-in not completed', '<p>The service did not accept this sign-in. Please sign in again.</p>');
	}
	const me = await client.fetchProtectedResource(config, tokens.access_token, new URL(`${ACCOUNTS}/api/v3/me.json`), 'GET');
	if (me.status === 404) return page(403, 'Account closed', '<p>This account has asked to be deleted.</p>');
	if (!me.ok) return page(502, 'Sign-in failed', `<p>The service could not tell us who you are (${me.status}).</p>`);
	const profile = await me.json();
	const groups = profile.verifications.map((v) => v.supergroup ?? v.group);
	return page(200, 'Signed in', `<p>Account ${profile.sbid_number}: ${groups.join(', ') || 'no active verification'}.</p>`);
}

createServer(async (req, res) => {
	const url = new URL(req.url, `http://localhost:${PORT}`);
	try {
		let answer;
		if (url.pathname === '/login') {
			const params = { redirect_uri: CALLBACK, country: 'uk', ...(BUG === 'readme-state' ? { state: STATE } : {}) };
			answer = [302, '', { location: client.buildAuthorizationUrl(config, params).href }];
		} else if (url.pathname === '/callback') answer = await callback(req, url);
		else answer = page(404, 'Not found', '');
		const [status, body, headers] = answer;
		res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
	} catch (error) {
		res.writeHead(500, { 'content-type': 'text/plain' }).end(`Internal Server Error\n${error.stack}`);
	}
}).listen(PORT, 'localhost', () => console.log(`listening on ${PORT}`));
