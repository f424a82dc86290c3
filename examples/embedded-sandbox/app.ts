/**
 * The app under test: an Express app that signs its users in with the service. `/login` sends the browser to the
 * authorisation link; `/callback` exchanges the code on the server, reads me.json and tells the user the outcome.
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AppSettings {
	authUrl: string;
	accountsUrl: string;
	clientId: string;
	clientSecret: string;
}

export interface RunningApp {
	url: string;
	callbackUrl: string;
	close(): Promise<void>;
}

interface Verification {
	supergroup?: string;
	/** The interface's sample response names the key `group` (2.4): accept either. */
	group?: string;
	expires_on: string;
}

const SUPERGROUP = 'student';

/** Whether the user has an active verification for the supergroup today (expires_on is the first day it is not). */
function verified(verifications: Verification[], today: string): boolean {
	return verifications.some((v) => (v.supergroup ?? v.group) === SUPERGROUP && v.expires_on > today);
}

export async function startApp(settings: AppSettings): Promise<RunningApp> {
	const app = express();
	let callbackUrl = '';

	app.get('/login', (_req, res) => {
		const link = new URL(`/sso/${SUPERGROUP}`, settings.authUrl);
		link.search = new URLSearchParams({ response_type: 'code', client_id: settings.clientId, redirect_uri: callbackUrl, country: 'uk' }).toString();
		res.redirect(link.href);
	});

	app.get('/callback', async (req, res) => {
		const code = typeof req.query['code'] === 'string' ? req.query['code'] : null;
		if (!code) return void res.status(200).send('You cancelled the sign-in. <a href="/login">Sign in</a>');
		const exchange = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: callbackUrl, client_id: settings.clientId, client_secret: settings.clientSecret });
		const token = await fetch(`${settings.accountsUrl}/oauth/token?${exchange}`, { method: 'POST' });
		if (!token.ok) {
			const { error } = (await token.json()) as { error?: string };
			return void res.status(502).send(`The sign-in failed (${error ?? token.status}). <a href="/login">Try again</a>`);
		}
		const { access_token } = (await token.json()) as { access_token: string };
		const me = await fetch(`${settings.accountsUrl}/api/v3/me.json`, { headers: { authorization: `Bearer ${access_token}` } });
		if (me.status === 404) return void res.status(403).send('Your account is being deleted.');
		if (!me.ok) return void res.status(502).send(`We could not read your verification (${me.status}). <a href="/login">Try again</a>`);
		const user = (await me.json()) as { sbid_number: string; verifications: Verification[] };
		const today = new Date().toISOString().slice(0, 10);
		if (!verified(user.verifications, today)) return void res.status(403).send('You have no active student verification.');
		res.status(200).send(`Welcome, verified student ${user.sbid_number}.`);
	});

	const server: Server = await new Promise((resolve) => {
		const s = app.listen(0, '127.0.0.1', () => resolve(s));
	});
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	callbackUrl = `${url}/callback`;
	return { url, callbackUrl, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
