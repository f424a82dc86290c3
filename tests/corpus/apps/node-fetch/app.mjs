// An integrator's sign-in written from the interface with node:http and fetch, no library. Configured by the
// environment (AUTH_URL, ACCOUNTS_URL, CLIENT_ID, CLIENT_SECRET, PORT, SUPERGROUP); BUG selects a seeded bug
// (tests/corpus/cases.ts), `none` is the correct app.
import { createServer } from 'node:http';
import { request } from 'node:http';

const env = (name, fallback) => process.env[name] ?? fallback ?? (() => { throw new Error(`Set ${name}`); })();
const AUTH = env('AUTH_URL');
const ACCOUNTS = env('ACCOUNTS_URL');
const CLIENT_ID = env('CLIENT_ID');
const SECRET = env('CLIENT_SECRET');
const PORT = Number(env('PORT'));
const SUPERGROUP = env('SUPERGROUP', 'student');
const BUG = env('BUG', 'none');
const BUGS = ['none', 'state-required', 'cancel-as-error', 'redirect-uri-differs', 'no-user-agent', 'group-key-crash', 'token-as-json', 'secret-in-link', 'exchange-twice', 'token-to-browser', 'bearer-secret'];
if (!BUGS.includes(BUG)) throw new Error(`BUG is one of ${BUGS.join(', ')}`);

const CALLBACK = `http://localhost:${PORT}/callback`;
const page = (status, title, body) => [status, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}<p><a href="/login">Sign in again</a></p></main></body></html>`];

function link() {
	const q = new URLSearchParams({ response_type: 'code', client_id: CLIENT_ID, redirect_uri: CALLBACK, country: 'uk' });
	if (BUG === 'state-required') q.set('state', 'abc123');
	if (BUG === 'secret-in-link') q.set('client_secret', SECRET);
	return `${AUTH}/sso/${SUPERGROUP}?${q}`;
}

async function exchange(code) {
	const params = { grant_type: 'authorization_code', code, redirect_uri: BUG === 'redirect-uri-differs' ? `http://127.0.0.1:${PORT}/callback` : CALLBACK, client_id: CLIENT_ID, client_secret: SECRET };
	if (BUG === 'token-as-json') {
		return fetch(`${ACCOUNTS}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': 'corpus-node-fetch/1' }, body: JSON.stringify(params) });
	}
	if (BUG === 'bearer-secret') {
		const { client_secret, ...rest } = params;
		return fetch(`${ACCOUNTS}/oauth/token?${new URLSearchParams(rest)}`, { method: 'POST', headers: { authorization: `Bearer ${client_secret}`, 'user-agent': 'corpus-node-fetch/1' } });
	}
	return fetch(`${ACCOUNTS}/oauth/token?${new URLSearchParams(params)}`, { method: 'POST', headers: { 'user-agent': 'corpus-node-fetch/1' } });
}

/** me.json with node:http, so that the headers sent are exactly the ones written here. */
function me(token) {
	const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
	if (BUG !== 'no-user-agent') headers['user-agent'] = 'corpus-node-fetch/1';
	return new Promise((resolve, reject) => {
		const req = request(`${ACCOUNTS}/api/v3/me.json`, { headers }, (res) => {
			let text = '';
			res.on('data', (c) => (text += c));
			res.on('end', () => resolve({ status: res.statusCode, text }));
		});
		req.on('error', reject);
		req.end();
	});
}

const groupsOf = (verifications) =>
	BUG === 'group-key-crash' ? verifications.map((v) => v.supergroup.toUpperCase()) : verifications.map((v) => String(v.supergroup ?? v.group ?? '').toUpperCase());

async function callback(url) {
	const code = url.searchParams.get('code');
	if (BUG === 'state-required' && url.searchParams.get('state') !== 'abc123') return page(403, 'Invalid state', '<p>Error: the state parameter did not match.</p>');
	if (!code && BUG !== 'cancel-as-error') return page(200, 'Sign-in cancelled', '<p>You cancelled the sign-in. Nothing was shared.</p>');
	if (BUG === 'exchange-twice') await exchange(code);
	const tokenResponse = await exchange(code);
	const token = await tokenResponse.json();
	if (!tokenResponse.ok) {
		if (BUG === 'cancel-as-error' || BUG === 'exchange-twice') throw new Error(`token endpoint: ${token.error}`);
		if (token.error === 'invalid_grant') return page(400, 'Sign-in link used', '<p>That sign-in has already been used or has expired.</p>');
		return page(502, 'Sign-in not completed', '<p>The service did not accept this sign-in.</p>');
	}
	const answer = await me(token.access_token);
	if (answer.status === 404) return page(403, 'Account closed', '<p>This account has asked to be deleted.</p>');
	if (answer.status !== 200) return page(502, 'Sign-in failed', `<p>The service could not tell us who you are (${answer.status}).</p>`);
	const profile = JSON.parse(answer.text);
	const groups = groupsOf(profile.verifications);
	if (BUG === 'token-to-browser') return [302, '', { location: `/home#access_token=${token.access_token}` }];
	return page(200, 'Signed in', `<p>Account ${profile.sbid_number}: ${groups.length ? groups.join(', ') : 'no active verification'}.</p>`);
}

createServer(async (req, res) => {
	const url = new URL(req.url, `http://localhost:${PORT}`);
	try {
		let answer;
		if (url.pathname === '/login') answer = [302, '', { location: link() }];
		else if (url.pathname === '/callback') answer = await callback(url);
		else if (url.pathname === '/home') answer = page(200, 'Home', '<p>Welcome.</p>');
		else answer = page(404, 'Not found', '');
		const [status, body, headers] = answer;
		res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
	} catch (error) {
		// What an unguarded handler does: the runtime's message and stack as a 500.
		res.writeHead(500, { 'content-type': 'text/plain' }).end(`Internal Server Error\n${error.stack}`);
	}
}).listen(PORT, 'localhost', () => console.log(`listening on ${PORT}`));
