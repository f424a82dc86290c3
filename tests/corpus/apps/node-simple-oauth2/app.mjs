// An integrator's sign-in with Express-less node:http and simple-oauth2 (its README's AuthorizationCode flow),
// written from the interface. Configured by the environment (AUTH_URL, ACCOUNTS_URL, CLIENT_ID, CLIENT_SECRET,
// PORT, SUPERGROUP); BUG selects a seeded bug (tests/corpus/cases.ts), `none` is the correct app.
import { createServer } from 'node:http';
import { AuthorizationCode } from 'simple-oauth2';

const need = (name) => process.env[name] ?? (() => { throw new Error(`Set ${name}`); })();
const PORT = Number(need('PORT'));
const ACCOUNTS = need('ACCOUNTS_URL');
const SUPERGROUP = process.env.SUPERGROUP ?? 'student';
const BUG = process.env.BUG ?? 'none';
const BUGS = ['none', 'json-body', 'redirect-uri-omitted', 'scope-and-state', 'expired-token-retry'];
if (!BUGS.includes(BUG)) throw new Error(`BUG is one of ${BUGS.join(', ')}`);
const CALLBACK = `http://localhost:${PORT}/callback`;

const client = new AuthorizationCode({
	client: { id: need('CLIENT_ID'), secret: need('CLIENT_SECRET') },
	auth: { tokenHost: ACCOUNTS, tokenPath: '/oauth/token', authorizeHost: need('AUTH_URL'), authorizePath: `/sso/${SUPERGROUP}` },
	options: { authorizationMethod: 'body', bodyFormat: BUG === 'json-body' ? 'json' : 'form' },
	http: { headers: { 'user-agent': 'corpus-simple-oauth2/1' } }
});

const page = (status, title, body) => [status, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}<p><a href="/login">Sign in again</a></p></main></body></html>`];

async function callback(url) {
	const code = url.searchParams.get('code');
	if (!code) return page(200, 'Sign-in cancelled', '<p>You cancelled the sign-in. Nothing was shared.</p>');
	let token;
	try {
		token = await client.getToken(BUG === 'redirect-uri-omitted' ? { code } : { code, redirect_uri: CALLBACK });
	} catch (error) {
		// The README's catch: log the message and answer an error.
		if (BUG !== 'none') return page(500, 'Error', `<p>Access Token Error: ${error.message}</p>`);
		const kind = error.data?.payload?.error;
		return kind === 'invalid_grant' ? page(400, 'Sign-in link used', '<p>That sign-in has already been used or has expired.</p>') : page(502, 'Sign-in not completed', '<p>The service did not accept this sign-in.</p>');
	}
	if (BUG === 'expired-token-retry') {
		// "Refresh if expired" from the README, with a clock check gone wrong: exchanges the same code again.
		token = await client.getToken({ code, redirect_uri: CALLBACK }).catch((error) => { throw new Error(`Access Token Error: ${error.message}`); });
	}
	const me = await fetch(`${ACCOUNTS}/api/v3/me.json`, { headers: { authorization: `Bearer ${token.token.access_token}`, 'user-agent': 'corpus-simple-oauth2/1' } });
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
			const params = BUG === 'scope-and-state' ? { redirect_uri: CALLBACK, scope: 'profile', state: 'xyz', country: 'uk' } : { redirect_uri: CALLBACK, country: 'uk' };
			answer = [302, '', { location: client.authorizeURL(params) }];
		} else if (url.pathname === '/callback') {
			answer = BUG === 'scope-and-state' && url.searchParams.get('state') !== 'xyz' ? page(403, 'Forbidden', '<p>Error: state mismatch.</p>') : await callback(url);
		} else answer = page(404, 'Not found', '');
		const [status, body, headers] = answer;
		res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
	} catch (error) {
		res.writeHead(500, { 'content-type': 'text/plain' }).end(`Internal Server Error\n${error.stack}`);
	}
}).listen(PORT, 'localhost', () => console.log(`listening on ${PORT}`));
