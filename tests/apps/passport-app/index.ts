/**
 * A small client application written the way integrators write it: Express, express-session, passport and
 * passport-oauth2, following passport-oauth2's README. Two variants:
 * - `naive`: the README's code. Errors fall through to Express's default error handler (a 500 page with a stack
 *   trace, NODE_ENV left unset), and a redirect without `code` (a cancel) makes passport-oauth2 start a new sign-in.
 * - `corrected`: the same app handling what the interface says can happen: cancel, a code already used or expired,
 *   me.json's 401/403/404, an empty `verifications`, the `group` key.
 * Knobs inject the bugs seen in the field: `redirectNext` and `state` (PassportAppOptions).
 * Tests import `startPassportApp`; `node --import tsx tests/apps/passport-app/index.ts` runs it from the environment
 * (optionsFromEnv).
 */
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import session from 'express-session';
import { Passport, type AuthenticateOptions } from 'passport';
import OAuth2Strategy, { type VerifyCallback } from 'passport-oauth2';

export type PassportAppVariant = 'naive' | 'corrected';

export interface PassportAppOptions {
	variant: PassportAppVariant;
	/** The authorisation host's origin, e.g. http://localhost:3001. */
	authHost: string;
	/** The accounts host's origin, e.g. http://localhost:3002. */
	accountsHost: string;
	clientId: string;
	clientSecret: string;
	/** The supergroup of the sign-in link (default `student`). */
	supergroup?: string;
	/** The link's `country` (default `uk`). */
	country?: string;
	/** 0 (default) picks any free port. */
	port?: number;
	/**
	 * The link's callbackURL carries `?next=/home`. The naive app passes it to `authenticate` at /login only, so the
	 * exchange sends the plain callback URL and the service answers invalid_grant; the corrected one sends the same
	 * URL both times.
	 */
	redirectNext?: boolean;
	/** passport-oauth2's `state: true` with the session. The service never returns `state`, so passport refuses the answer. */
	state?: boolean;
}

export interface PassportApp {
	/** The app's origin, e.g. http://localhost:41234; the link starts at `${url}/login`. */
	url: string;
	/** The callback URL as registered (no query). */
	callbackUrl: string;
	close(): Promise<void>;
}

/** The me.json answer the corrected app reads. */
interface MeProfile {
	sbid_number: string;
	verifications: { supergroup: string; expires_on: string }[];
}

/** A me.json failure, kept with its status so the corrected app can say what it means. */
class MeError extends Error {
	constructor(readonly status: number) {
		super(`me.json answered ${status}`);
	}
}

const page = (title: string, body: string) =>
	`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The interface names the key `supergroup` but shows `group` in a sample (2.4): the corrected app reads either. */
function verificationsOf(body: unknown, variant: PassportAppVariant): MeProfile['verifications'] {
	const list = (body as { verifications?: unknown }).verifications;
	if (!Array.isArray(list)) return [];
	return list.map((v: Record<string, string>) => ({
		supergroup: variant === 'corrected' ? (v.supergroup ?? v.group ?? '') : v.supergroup!,
		expires_on: v.expires_on ?? ''
	}));
}

/** passport-oauth2 takes `callbackURL` per call; passport's types do not list it. */
const withCallbackUrl = (callbackURL: string) => ({ callbackURL }) as AuthenticateOptions;

export function createPassportApp(options: PassportAppOptions, origin: () => string) {
	const { variant } = options;
	const supergroup = options.supergroup ?? 'student';
	const callbackPath = '/auth/callback';
	const callbackUrl = () => `${origin()}${callbackPath}`;
	const nextCallbackUrl = () => `${callbackUrl()}?next=${encodeURIComponent('/home')}`;

	const passport = new Passport();
	const strategy = new OAuth2Strategy(
		{
			authorizationURL: `${options.authHost}/sso/${supergroup}?country=${options.country ?? 'uk'}`,
			tokenURL: `${options.accountsHost}/oauth/token`,
			clientID: options.clientId,
			clientSecret: options.clientSecret,
			// Relative: passport-oauth2 resolves it against the request's own origin (the port is known once listening).
			callbackURL: callbackPath,
			state: options.state ?? false
		},
		(accessToken: string, _refreshToken: string, profile: MeProfile, done: VerifyCallback) => done(null, profile)
	);
	// me.json is the service's profile endpoint: Bearer token, and node-oauth's User-Agent ("Node-oauth").
	strategy['_oauth2'].useAuthorizationHeaderforGET(true);
	strategy.userProfile = function (accessToken, done) {
		strategy['_oauth2'].get(`${options.accountsHost}/api/v3/me.json`, accessToken, (err, body) => {
			if (err) {
				const status = 'statusCode' in err ? err.statusCode : 0;
				return done(variant === 'corrected' ? new MeError(status) : new Error(`Failed to fetch user profile: ${status}`));
			}
			try {
				const parsed = JSON.parse(String(body));
				done(null, { sbid_number: parsed.sbid_number, verifications: verificationsOf(parsed, variant) });
			} catch (e) {
				done(e as Error);
			}
		});
	};
	passport.use('oauth2', strategy);
	passport.serializeUser((user, done) => done(null, user));
	passport.deserializeUser((user: Express.User, done) => done(null, user));

	const app = express();
	app.use(session({ secret: 'passport-app-session-secret', resave: false, saveUninitialized: false }));
	app.use(passport.initialize());
	app.use(passport.session());

	app.get('/', (_req, res) => {
		res.send(page('Example app', `<p><a href="/login">Sign in</a></p>`));
	});

	app.get('/login', (req, res, next) => {
		const callbackURL = options.redirectNext ? nextCallbackUrl() : callbackUrl();
		passport.authenticate('oauth2', withCallbackUrl(callbackURL))(req, res, next);
	});

	if (variant === 'naive') {
		// The README's callback: the exchange sends the strategy's own callback URL (redirectNext's link URL is forgotten).
		app.get(callbackPath, passport.authenticate('oauth2', { failureRedirect: '/login' }), (_req, res) => {
			res.redirect('/home');
		});
	} else {
		app.get(callbackPath, correctedCallback);
	}

	app.get('/home', (req, res) => {
		const user = req.user as MeProfile | undefined;
		if (!user) return res.redirect('/login');
		if (user.verifications.length === 0) {
			return res.send(
				page('Signed in', `<p>Signed in as <span data-testid="sbid">${escape(user.sbid_number)}</span>.</p><p data-testid="no-verification">No active verification: the service lists none for this account.</p>`)
			);
		}
		const items = user.verifications.map((v) => `<li>${escape(v.supergroup)} until ${escape(v.expires_on)}</li>`).join('');
		res.send(page('Signed in', `<p>Signed in as <span data-testid="sbid">${escape(user.sbid_number)}</span>.</p><ul data-testid="verifications">${items}</ul>`));
	});

	/** The corrected callback: cancel, refused answers and failed exchanges each get a page of their own. */
	function correctedCallback(req: Request, res: Response, next: NextFunction) {
		const query = req.query as Record<string, string | undefined>;
		if (!query.code && !query.error) {
			return res.status(200).send(page('Sign-in cancelled', `<p>You cancelled the sign-in. Nothing has changed.</p><p><a href="/login">Try again</a></p>`));
		}
		const again = `<p><a href="/login">Sign in again</a></p>`;
		// The exchange must send the link's redirect URI exactly, extra query included (4.2).
		const callbackURL = options.redirectNext && query.next ? nextCallbackUrl() : callbackUrl();
		passport.authenticate('oauth2', withCallbackUrl(callbackURL), (err: unknown, user: MeProfile | false, info: { message?: string } | undefined) => {
			if (err instanceof MeError) {
				const meaning: Record<number, [number, string]> = {
					// A page of our own, never a 5xx: the app check requires it of every refusal.
					401: [401, 'The service did not accept our access token. Please sign in again.'],
					403: [403, 'The service refused our request. Please try again later.'],
					404: [403, 'This account has asked to be deleted, so it cannot be used to sign in.']
				};
				const [status, message] = meaning[err.status] ?? [502, 'The service could not tell us who you are. Please try again later.'];
				return res.status(status).send(page('Sign-in failed', `<p>${message}</p>${again}`));
			}
			if (err instanceof OAuth2Strategy.TokenError) {
				const message =
					err.code === 'invalid_grant' ? 'That sign-in link has already been used or expired.' : 'The service did not accept this sign-in.';
				return res.status(400).send(page('Sign-in not completed', `<p>${message} Please sign in again.</p>${again}`));
			}
			if (err instanceof OAuth2Strategy.InternalOAuthError) {
				return res.status(502).send(page('Sign-in failed', `<p>We could not reach the sign-in service. Please try again later.</p>${again}`));
			}
			if (err) return next(err);
			if (!user) {
				return res.status(403).send(page('Sign-in refused', `<p>We could not check this sign-in answer (${escape(info?.message ?? 'no reason given')}). Please sign in again.</p>${again}`));
			}
			req.logIn(user, (loginError) => {
				if (loginError) return next(loginError);
				const target = query.next?.startsWith('/') && !query.next.startsWith('//') ? query.next : '/home';
				res.redirect(target);
			});
		})(req, res, next);
	}

	return { app, callbackUrl };
}

/** Starts the app; resolves once it listens. */
export async function startPassportApp(options: PassportAppOptions): Promise<PassportApp> {
	let url = '';
	const { app, callbackUrl } = createPassportApp(options, () => url);
	const server = app.listen(options.port ?? 0, 'localhost');
	await new Promise<void>((resolve, reject) => {
		server.once('listening', resolve);
		server.once('error', reject);
	});
	url = `http://localhost:${(server.address() as AddressInfo).port}`;
	return {
		url,
		callbackUrl: callbackUrl(),
		close: () =>
			new Promise<void>((resolve, reject) => {
				server.closeAllConnections();
				server.close((e) => (e ? reject(e) : resolve()));
			})
	};
}

/** The options from the environment, for a CLI: PASSPORT_APP_VARIANT, AUTH_HOST, ACCOUNTS_HOST, CLIENT_ID, … */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): PassportAppOptions {
	const required = (name: string) => {
		const value = env[name];
		if (!value) throw new Error(`Set ${name}`);
		return value;
	};
	const variant = env.PASSPORT_APP_VARIANT ?? 'naive';
	if (variant !== 'naive' && variant !== 'corrected') throw new Error('PASSPORT_APP_VARIANT is naive or corrected');
	const on = (name: string) => env[name] === '1' || env[name] === 'true';
	return {
		variant,
		authHost: required('AUTH_HOST'),
		accountsHost: required('ACCOUNTS_HOST'),
		clientId: required('CLIENT_ID'),
		clientSecret: required('CLIENT_SECRET'),
		supergroup: env.SUPERGROUP,
		country: env.COUNTRY,
		port: env.PORT ? Number(env.PORT) : 0,
		redirectNext: on('REDIRECT_NEXT'),
		state: on('STATE')
	};
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const app = await startPassportApp(optionsFromEnv());
	console.log(`Passport app listening on ${app.url} (callback ${app.callbackUrl})`);
}
