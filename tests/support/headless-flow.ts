/** A whole flow done headless against the built-in sandbox, as an app's server would: link, code, token, me.json. */
import { ACCOUNTS_HOST, DEMO_SECRET, EXPLORER, STUDENT } from './walk';

const DEMO_REDIRECT = `${EXPLORER}/callback`;

/** `secret`: the client secret the token exchange sends (a wrong one makes the flow fail there, 401 invalid_client). */
export async function headlessFlow(secret = DEMO_SECRET): Promise<{ code: string; accessToken: string; refreshToken: string }> {
	const authorised = await fetch(`${ACCOUNTS_HOST}/sandbox/authorize`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ supergroup: 'student', response_type: 'code', client_id: 'demo-client', redirect_uri: DEMO_REDIRECT, country: 'uk', login: STUDENT, decision: 'authorize' })
	});
	const code = new URL(((await authorised.json()) as { location: string }).location).searchParams.get('code')!;
	const token = await fetch(`${ACCOUNTS_HOST}/oauth/token`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: 'demo-client', client_secret: secret, redirect_uri: DEMO_REDIRECT })
	});
	const issued = (await token.json()) as { access_token?: string; refresh_token?: string };
	if (issued.access_token) await fetch(`${ACCOUNTS_HOST}/api/v3/me.json`, { headers: { authorization: `Bearer ${issued.access_token}`, 'user-agent': 'live-test/1' } });
	return { code, accessToken: issued.access_token ?? '', refreshToken: issued.refresh_token ?? '' };
}
