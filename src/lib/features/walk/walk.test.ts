/**
 * The secret's promise, end to end on the server: a walk whose every exchange carried the client secret (in the
 * query, a form body and an Authorization header) and brought back tokens gives the browser a view in which neither
 * the secret nor a token appears in any form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClientSettings, applySettings, exchangeCode, newWalk, readMe, recordCallback, shownEntry, startAuthorisation, type Walk, type WalkEntry } from './walk';
import { walkView } from './walk-view';
import { resolveTarget } from '../../platform/outbound/targets';
import { testConfig } from '../../platform/test-config';
import type { ExplorerConfig } from '../../platform/config';

const SECRET = 'super-secret value/+=42';
const ACCESS = 'access-token-0123456789abcdef';
const REFRESH = 'refresh-token-fedcba9876543210';

let server: http.Server;
/** Each exchange brings new tokens (ACCESS and REFRESH with a number after), so the walk's secrets keep changing. */
let issued = 0;
let config: ExplorerConfig;

beforeAll(async () => {
	// A hostile accounts host: answers tokens, and echoes the whole request (secret included) on me.json.
	server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (c: Buffer) => (body += c.toString()));
		req.on('end', () => {
			res.setHeader('Content-Type', 'application/json');
			if (req.url?.startsWith('/oauth/token')) {
				issued++;
				// A deployment that departs from 2.3 (lower-case token_type, no expires_in or created_at) for a code named `lax-…`.
				if (req.url.includes('code=lax-')) return void res.end(JSON.stringify({ access_token: `${ACCESS}${issued}`, token_type: 'bearer', refresh_token: `${REFRESH}${issued}` }));
				res.end(JSON.stringify({ access_token: `${ACCESS}${issued}`, token_type: 'Bearer', expires_in: 2419199, refresh_token: `${REFRESH}${issued}`, created_at: 1 }));
			} else {
				res.writeHead(401).end(JSON.stringify({ message: `echo ${req.url} ${JSON.stringify(req.headers)} ${body}` }));
			}
		});
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	config = testConfig({ ACCOUNTS_PORT: String((server.address() as AddressInfo).port) });
});

afterAll(() => new Promise((r) => server.close(r)));

function walk(): Walk {
	const target = resolveTarget({ kind: 'sandbox' }, config);
	if (!target.ok) throw new Error(target.message);
	return newWalk(target.target, {
		clientId: 'demo-client',
		clientSecret: SECRET,
		redirectUri: 'http://localhost:3000/callback',
		supergroup: 'student',
		country: 'uk',
		responseType: 'code',
		extraLinkParams: []
	});
}

const forms = (value: string) => [value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), Buffer.from(value).toString('base64')];

describe('walkView', () => {
	it('shows neither the client secret nor a token, in any encoding, after every kind of exchange', async () => {
		const w = walk();
		expect(startAuthorisation(w, `${w.target.authUrl}/sso/student?response_type=code&client_id=demo-client&redirect_uri=${encodeURIComponent(w.client.redirectUri)}&country=uk`)).toEqual({ ok: true });
		recordCallback(w, 'http://localhost:3000/callback?code=grant-code-1', () => new Date());
		// A view after every step, as the browser gets one.
		const views: string[] = [];
		for (const transport of ['query', 'form', 'basic', 'bearer'] as const) {
			await exchangeCode(w, { transport }, config, () => new Date());
			views.push(JSON.stringify(walkView(w, null)));
			await readMe(w, { transport: transport === 'query' ? 'query' : 'header', userAgent: true, host: true, credential: 'token' }, config, () => new Date());
			views.push(JSON.stringify(walkView(w, null)));
		}

		expect(w.exchanges).toHaveLength(8);
		expect(w.exchanges.every((e) => e.exchange.failure === null)).toBe(true);
		for (const seen of views) {
			for (const value of [SECRET, ACCESS, REFRESH]) {
				for (const form of forms(value)) expect(seen).not.toContain(form);
			}
			expect(seen).toContain('"set":true');
		}
	});

	it('masks the tokens of an answer that departs from 2.3 (token_type "bearer", fields missing) as of any other', async () => {
		const w = walk();
		startAuthorisation(w, `${w.target.authUrl}/sso/student?response_type=code&client_id=demo-client&redirect_uri=${encodeURIComponent(w.client.redirectUri)}&country=uk`);
		recordCallback(w, 'http://localhost:3000/callback?code=lax-code-1', () => new Date());
		await exchangeCode(w, { transport: 'query' }, config, () => new Date());
		const seen = JSON.stringify(walkView(w, null));
		expect(seen).toContain('bearer');
		for (const value of [ACCESS, REFRESH]) expect(seen).not.toContain(value);
		expect(w.accessToken).toMatch(new RegExp(`^${ACCESS}`));
	});

	it('starts a new run at a second redirect, so the run saved from the first keeps its exchanges', async () => {
		const w = walk();
		startAuthorisation(w, `${w.target.authUrl}/sso/student?response_type=code&client_id=demo-client&redirect_uri=${encodeURIComponent(w.client.redirectUri)}&country=uk`);
		const first = w.runId;
		recordCallback(w, 'http://localhost:3000/callback?code=grant-code-1', () => new Date());
		expect(w.runId).toBe(first);
		await exchangeCode(w, { transport: 'query' }, config, () => new Date());
		// Any page the browser opens can send it to the redirect URI (a cancel, another code).
		recordCallback(w, 'http://localhost:3000/callback?error=access_denied', () => new Date());
		expect(w.runId).not.toBe(first);
		expect(w.exchanges).toEqual([]);
	});

	it('shows each exchange as masked once until the secrets change, then masks it again with the new ones', async () => {
		const w = walk();
		startAuthorisation(w, `${w.target.authUrl}/sso/student?response_type=code&client_id=demo-client&redirect_uri=${encodeURIComponent(w.client.redirectUri)}&country=uk`);
		recordCallback(w, 'http://localhost:3000/callback?code=grant-code-1', () => new Date());
		await exchangeCode(w, { transport: 'query' }, config, () => new Date());
		await readMe(w, { transport: 'header', userAgent: true, host: true, credential: 'token' }, config, () => new Date());
		const first = walkView(w, null).exchanges;
		expect(walkView(w, null).exchanges.every((entry, i) => entry === first[i])).toBe(true);

		const entry: WalkEntry = { ...w.exchanges[1]!, shown: undefined };
		const carrying = { ...entry, exchange: { ...entry.exchange, response: { ...entry.exchange.response!, body: '{"note":"later-known-token-0123456789"}' } } };
		const before = { clientSecret: SECRET, accessTokens: [], refreshTokens: [] };
		expect(JSON.stringify(shownEntry(carrying, before))).toContain('later-known-token-0123456789');
		expect(JSON.stringify(shownEntry(carrying, { ...before, accessTokens: ['later-known-token-0123456789'] }))).not.toContain('later-known-token-0123456789');
	});

	it('starts a new walk when the client secret changes, so no exchange carrying the old one is shown unmasked', async () => {
		const w = walk();
		startAuthorisation(w, `${w.target.authUrl}/sso/student?response_type=code&client_id=demo-client&redirect_uri=${encodeURIComponent(w.client.redirectUri)}&country=uk`);
		recordCallback(w, 'http://localhost:3000/callback?code=grant-code-1', () => new Date());
		await exchangeCode(w, { transport: 'query' }, config, () => new Date());
		const runBefore = w.runId;
		const settings = { target: { kind: 'sandbox' as const }, clientId: 'demo-client', redirectUri: w.client.redirectUri, supergroup: 'student', country: 'uk', responseType: 'code', extraLinkParams: [] };

		expect(applySettings(w, settings, config)).toEqual({ ok: true });
		expect(w.exchanges).toHaveLength(1); // no secret given: the one held is kept, and so is the walk

		expect(applySettings(w, { ...settings, clientSecret: 'a-new-secret-value' }, config)).toEqual({ ok: true });
		expect(w.exchanges).toHaveLength(0);
		expect(w.runId).not.toBe(runBefore);
		const seen = JSON.stringify(walkView(w, null));
		for (const form of forms(SECRET)) expect(seen).not.toContain(form);
	});

	it('keeps the code received across a change of client, and the tamper sends it with the new client’s credentials', async () => {
		const w = walk();
		startAuthorisation(w, `${w.target.authUrl}/sso/student?response_type=code&client_id=demo-client&redirect_uri=${encodeURIComponent(w.client.redirectUri)}&country=uk`);
		recordCallback(w, 'http://localhost:3000/callback?code=grant-code-1', () => new Date());
		const settings = { target: { kind: 'sandbox' as const }, clientId: 'other-client', clientSecret: 'other-secret-value', redirectUri: w.client.redirectUri, supergroup: 'student', country: 'uk', responseType: 'code', extraLinkParams: [] };
		expect(applySettings(w, settings, config)).toEqual({ ok: true });
		expect(w.callback?.result).toMatchObject({ kind: 'code', code: 'grant-code-1' });
		expect(w.linkClientId).toBe('demo-client');

		await exchangeCode(w, { transport: 'query', tamper: 'other_client' }, config, () => new Date());
		const sent = new URL(w.exchanges[0]!.exchange.request.url).searchParams;
		expect([sent.get('client_id'), sent.get('client_secret'), sent.get('code')]).toEqual(['other-client', 'other-secret-value', 'grant-code-1']);
		expect(w.exchanges[0]!.exchange.label).toContain('code issued to another client');

		// A change of target is a new walk: the code goes.
		applySettings(w, { ...settings, target: { kind: 'custom', authUrl: 'http://127.0.0.1:9', accountsUrl: 'http://127.0.0.1:9' } }, testConfig({ EXPLORER_ALLOWED_HOSTS: '127.0.0.1:9' }));
		expect(w.callback).toBeNull();
	});
});

describe('the secret held, bound to its target', () => {
	/** The test server as a custom target: the same host, allowed by the operator, under another name than the sandbox's. */
	const custom = () => {
		const port = new URL(config.sandbox.accountsUrl).port;
		const origin = `http://127.0.0.1:${port}`;
		const customConfig = testConfig({ ACCOUNTS_PORT: port, EXPLORER_ALLOWED_HOSTS: `127.0.0.1:${port}`, EXPLORER_ALLOW_PRIVATE_TARGETS: 'on' });
		return { origin, customConfig };
	};
	const settings = (target: ClientSettings['target'], clientSecret?: string): ClientSettings => ({
		target,
		clientId: 'demo-client',
		...(clientSecret === undefined ? {} : { clientSecret }),
		redirectUri: 'http://localhost:3000/callback',
		supergroup: 'student',
		country: 'uk',
		responseType: 'code',
		extraLinkParams: []
	});
	const withCode = (w: Walk) => {
		startAuthorisation(w, `${w.target.authUrl}/sso/student?response_type=code&client_id=demo-client&redirect_uri=x&country=uk`);
		recordCallback(w, 'http://localhost:3000/callback?code=grant-code-1', () => new Date());
	};
	const sentText = (w: Walk) => w.exchanges.map(({ exchange: { request } }) => `${request.url} ${JSON.stringify(request.headers)} ${request.body}`).join('\n');

	it('is refused when too short to hide (masking "y" would hide every y of every body), and taken from 8 characters', () => {
		const refused = ClientSettings.safeParse(settings({ kind: 'sandbox' }, 'y'));
		expect(refused.success).toBe(false);
		expect(refused.error?.issues[0]?.message).toMatch(/^a client secret shorter than 8 characters cannot be hidden/);
		expect(ClientSettings.safeParse(settings({ kind: 'sandbox' }, 'abcdefgh')).success).toBe(true);
		expect(ClientSettings.safeParse(settings({ kind: 'sandbox' }, '')).success).toBe(true);
	});

	it('is dropped when the target changes without a new secret: the new target receives none, in any transport', async () => {
		const { origin, customConfig } = custom();
		const w = walk();
		expect(applySettings(w, settings({ kind: 'custom', authUrl: origin, accountsUrl: origin }), customConfig)).toEqual({ ok: true });
		expect(w.secret).toBeNull();
		expect(walkView(w, null).client.secret).toEqual({ set: false });
		withCode(w);
		for (const transport of ['query', 'form', 'basic', 'bearer'] as const) await exchangeCode(w, { transport }, customConfig, () => new Date());
		await exchangeCode(w, { transport: 'query', tamper: 'secret' }, customConfig, () => new Date());
		expect(w.exchanges.map((e) => e.exchange.failure)).toEqual([null, null, null, null, null]);
		for (const form of forms(SECRET)) expect(sentText(w)).not.toContain(form);
	});

	it("is not brought back by returning to the old target; only the sandbox's demo secret is, for the demo client", () => {
		const { origin, customConfig } = custom();
		const toCustom = settings({ kind: 'custom', authUrl: origin, accountsUrl: origin });
		const demo = { clientId: 'demo-client', secret: 'the-demo-secret' };
		const w = walk();
		applySettings(w, toCustom, customConfig, demo);
		expect(w.secret, 'not for a custom target, even with the demo client').toBeNull();
		applySettings(w, settings({ kind: 'sandbox' }), customConfig);
		expect(w.secret).toBeNull();

		applySettings(w, toCustom, customConfig, demo);
		applySettings(w, { ...settings({ kind: 'sandbox' }), clientId: 'other-client' }, customConfig, demo);
		expect(w.secret, 'not for another client').toBeNull();

		applySettings(w, toCustom, customConfig, demo);
		applySettings(w, settings({ kind: 'sandbox' }), customConfig, demo);
		expect(w.secret).toEqual({ value: 'the-demo-secret', origin: new URL(config.sandbox.accountsUrl).origin });
	});

	it('given with the new target, is held for it and sent to it', async () => {
		const { origin, customConfig } = custom();
		const w = walk();
		applySettings(w, settings({ kind: 'custom', authUrl: origin, accountsUrl: origin }, 'the-custom-secret'), customConfig);
		expect(w.secret).toEqual({ value: 'the-custom-secret', origin });
		withCode(w);
		await exchangeCode(w, { transport: 'query' }, customConfig, () => new Date());
		expect(new URL(w.exchanges[0]!.exchange.request.url).searchParams.get('client_secret')).toBe('the-custom-secret');
	});

	it('is never sent to a target it was not given for, even held by a walk pointed elsewhere behind its back', async () => {
		const { origin, customConfig } = custom();
		const w = walk();
		withCode(w);
		w.target = { kind: 'custom', authUrl: origin, accountsUrl: origin };
		await exchangeCode(w, { transport: 'form' }, customConfig, () => new Date());
		await exchangeCode(w, { transport: 'basic', tamper: 'secret' }, customConfig, () => new Date());
		for (const form of forms(SECRET)) expect(sentText(w)).not.toContain(form);
	});
});

describe('startAuthorisation', () => {
	const link = (extra: string) =>
		`http://localhost:3001/sso/student?response_type=code&client_id=demo-client&redirect_uri=${encodeURIComponent('http://localhost:3000/callback')}&country=uk${extra}`;

	it('refuses a link carrying the secret, as a client_secret parameter or anywhere else, and keeps nothing of it', () => {
		for (const extra of [`&client_secret=${encodeURIComponent(SECRET)}`, `&client_secret=someone-elses`, `&note=${encodeURIComponent(SECRET)}`]) {
			const w = walk();
			const result = startAuthorisation(w, link(extra));
			expect(result.ok).toBe(false);
			expect(w.link).toBeNull();
			for (const form of forms(SECRET)) expect(JSON.stringify(result)).not.toContain(form);
		}
	});

	it('accepts a clean link', () => {
		const w = walk();
		expect(startAuthorisation(w, link(''))).toEqual({ ok: true });
		expect(w.link).toBe(link(''));
	});
});

describe('ClientSettings', () => {
	const settings = { target: { kind: 'sandbox' }, clientId: 'demo-client', redirectUri: 'http://localhost:3000/callback', supergroup: 'student', country: 'uk', responseType: 'code', extraLinkParams: [] };

	it('refuses text with an unpaired surrogate, naming the field, where a URL built from it would silently differ', () => {
		for (const [field, value] of [['clientId', 'demo\uD800'], ['clientSecret', '\uDC00secret'], ['redirectUri', 'http://localhost:3000/cb\uD83D']] as const) {
			const parsed = ClientSettings.safeParse({ ...settings, [field]: value });
			expect(parsed.success).toBe(false);
			expect(parsed.error?.issues[0]?.path).toEqual([field]);
			expect(parsed.error?.issues[0]?.message).toContain('unpaired surrogate');
		}
		const extras = ClientSettings.safeParse({ ...settings, extraLinkParams: [['state', 'x\uDBFF']] });
		expect(extras.error?.issues[0]?.path).toEqual(['extraLinkParams', 0, 1]);
	});

	it('accepts any well-formed text, characters outside the BMP included', () => {
		expect(ClientSettings.safeParse({ ...settings, clientId: 'client-😀-é' }).success).toBe(true);
	});
});
