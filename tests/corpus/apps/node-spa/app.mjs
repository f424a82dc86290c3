// An integrator's single-page app with its own API, written from the interface: the page reads `code` from its
// URL and posts it to the app's server (POST /api/session), which exchanges it and reads me.json. Configured by
// the environment (AUTH_URL, ACCOUNTS_URL, CLIENT_ID, CLIENT_SECRET, PORT, SUPERGROUP); BUG selects a seeded bug
// (tests/corpus/cases.ts), `none` is the correct app.
import { createServer } from 'node:http';

const need = (name) => process.env[name] ?? (() => { throw new Error(`Set ${name}`); })();
const AUTH = need('AUTH_URL');
const ACCOUNTS = need('ACCOUNTS_URL');
const CLIENT_ID = need('CLIENT_ID');
const SECRET = need('CLIENT_SECRET');
const PORT = Number(need('PORT'));
const SUPERGROUP = process.env.SUPERGROUP ?? 'student';
const BUG = process.env.BUG ?? 'none';
const BUGS = ['none', 'double-post', 'cancel-null-code', 'token-in-api-answer'];
if (!BUGS.includes(BUG)) throw new Error(`BUG is one of ${BUGS.join(', ')}`);
const CALLBACK = `http://localhost:${PORT}/callback`;
const UA = { 'user-agent': 'corpus-node-spa/1' };

// The page's script: what a component's effect does on mount. The bug variants are how such code goes wrong.
const script = `
const code = new URLSearchParams(location.search).get('code');
const out = document.querySelector('#out');
async function signIn() {
	${BUG === 'cancel-null-code' ? '' : "if (!code) { out.textContent = 'You cancelled the sign-in. Nothing was shared.'; return; }"}
	const res = await fetch('/api/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
	const body = await res.json();
	${BUG === 'token-in-api-answer' ? "if (body.access_token) localStorage.setItem('token', body.access_token);" : ''}
	out.textContent = res.ok ? 'Signed in: ' + body.sbid_number + ' (' + body.groups.join(', ') + ')' : 'Error: ' + body.error;
}
signIn();
${BUG === 'double-post' ? '// A second mount (a double render) runs the effect again.\nsignIn();' : ''}
`;
const shell = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>My app</title></head><body><main><h1>My app</h1><p id="out">Signing you in…</p><p><a href="/login">Sign in again</a></p></main><script type="module">${script}</script></body></html>`;

async function session(code) {
	const query = new URLSearchParams({ grant_type: 'authorization_code', code: String(code), redirect_uri: CALLBACK, client_id: CLIENT_ID, client_secret: SECRET });
	const tokenAnswer = await fetch(`${ACCOUNTS}/oauth/token?${query}`, { method: 'POST', headers: UA });
	const token = await tokenAnswer.json();
	if (!tokenAnswer.ok) return [tokenAnswer.status === 400 ? 400 : 502, { error: token.error_description ?? token.error }];
	const meAnswer = await fetch(`${ACCOUNTS}/api/v3/me.json`, { headers: { ...UA, authorization: `Bearer ${token.access_token}` } });
	if (meAnswer.status === 404) return [403, { error: 'This account has asked to be deleted.' }];
	if (!meAnswer.ok) return [502, { error: `The service could not tell us who you are (${meAnswer.status}).` }];
	const me = await meAnswer.json();
	const groups = me.verifications.map((v) => v.supergroup ?? v.group);
	return [200, { sbid_number: me.sbid_number, groups, ...(BUG === 'token-in-api-answer' ? { access_token: token.access_token } : {}) }];
}

createServer(async (req, res) => {
	const url = new URL(req.url, `http://localhost:${PORT}`);
	const send = (status, type, body, headers = {}) => res.writeHead(status, { 'content-type': type, ...headers }).end(body);
	try {
		if (url.pathname === '/login') {
			const q = new URLSearchParams({ response_type: 'code', client_id: CLIENT_ID, redirect_uri: CALLBACK, country: 'uk' });
			return send(302, 'text/plain', '', { location: `${AUTH}/sso/${SUPERGROUP}?${q}` });
		}
		if (url.pathname === '/callback' || url.pathname === '/') return send(200, 'text/html; charset=utf-8', shell);
		if (url.pathname === '/api/session' && req.method === 'POST') {
			let text = '';
			for await (const chunk of req) text += chunk;
			const [status, body] = await session(JSON.parse(text).code);
			return send(status, 'application/json', JSON.stringify(body));
		}
		send(404, 'text/plain', 'Not found');
	} catch (error) {
		send(500, 'application/json', JSON.stringify({ error: String(error) }));
	}
}).listen(PORT, 'localhost', () => console.log(`listening on ${PORT}`));
