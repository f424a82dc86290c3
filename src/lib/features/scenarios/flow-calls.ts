/** The token and me.json steps: the two calls a client makes, built as the explorer builds them and annotated as a saved run is. */
import type { RecordedExchange } from '$lib/flow/exchange';
import { issuedTokens } from '$lib/flow/tokens';
import { send } from '$lib/platform/outbound/outbound';
import { buildMeRequest, buildTokenRequest } from '$lib/platform/outbound/requests';
import type { Step } from '$lib/features/scenarios/pure/library';
import { annotateLatest, emit, fill, mask, observedFrom, party, type Outcome, type World } from './world';

type TokenStep = Extract<Step, { kind: 'token' }>;

export function tokenText(step: TokenStep): string {
	const changes = [
		...(step.as === 'other' ? ['as the second client'] : []),
		...(step.secret === 'wrong' ? ['with a wrong secret'] : step.secret && step.secret !== (step.as ?? 'main') ? ["with the first client's secret"] : []),
		...(step.clientId ? ['with a client_id nobody registered'] : []),
		...(step.code ? ['with a made-up code'] : []),
		...(step.grantType ? [`with grant_type=${step.grantType}`] : []),
		...(step.redirectUriExtra ? ['with an extra query parameter on redirect_uri'] : []),
		...(step.omit ?? []).map((name) => `without ${name}`)
	];
	return `Exchange the code at /oauth/token${changes.length ? ` ${changes.join(', ')}` : ''}`;
}

export async function exchangeCode(world: World, step: TokenStep): Promise<Outcome> {
	const p = party(world, step.as ?? 'main');
	const secretOwner = step.secret === undefined || step.secret === 'wrong' ? p : party(world, step.secret);
	const clientSecret = secretOwner.clientSecret;
	const request = buildTokenRequest({
		accountsUrl: world.ctx.accountsUrl,
		code: step.code ? fill(world, step.code, p) : (world.code ?? undefined),
		redirectUri: world.linkRedirectUri ?? p.redirectUri,
		clientId: step.clientId ? fill(world, step.clientId, p) : p.clientId,
		...(clientSecret === undefined ? {} : { clientSecret }),
		transport: 'query',
		omit: step.omit ?? [],
		tamper: { redirectUriExtra: step.redirectUriExtra === true, wrongSecret: step.secret === 'wrong', ...(step.grantType ? { grantType: step.grantType } : {}) }
	});
	const exchange = await send(request, { config: world.ctx.config, step: 'token', label: tokenText(step) });
	const tokens = issuedTokens(exchange);
	if (tokens) {
		world.token = tokens.access_token;
		world.expiresIn = tokens.expires_in;
		world.accessTokens.push(tokens.access_token);
		if (tokens.refresh_token !== null) world.refreshTokens.push(tokens.refresh_token);
	}
	return recordFlowExchange(world, 'token', tokenText(step), exchange);
}

type MeStep = Extract<Step, { kind: 'me' }>;

export function meText(step: MeStep): string {
	const credential = { token: 'with the access token', code: 'with the grant code instead of a token', none: 'without a token' }[step.credential ?? 'token'];
	return `Read me.json ${credential}${step.userAgent === false ? ', no User-Agent' : ''}${step.host === false ? ', no Host' : ''}`;
}

export async function readMe(world: World, step: MeStep): Promise<Outcome> {
	const credential = step.credential ?? 'token';
	const token = credential === 'token' ? world.token : credential === 'code' ? world.code : null;
	if (credential !== 'none' && token === null) {
		return { kind: 'done', observed: null, succeeded: false, problem: `there is no ${credential === 'token' ? 'access token' : 'grant code'} to send` };
	}
	const request = buildMeRequest({
		accountsUrl: world.ctx.accountsUrl,
		...(token === null ? {} : { token }),
		transport: 'header',
		userAgent: step.userAgent !== false,
		host: step.host !== false
	});
	const exchange = await send(request, { config: world.ctx.config, step: 'me', label: meText(step) });
	return recordFlowExchange(world, 'me', meText(step), exchange);
}

function recordFlowExchange(world: World, step: 'token' | 'me', text: string, exchange: RecordedExchange): Outcome {
	world.run.exchanges.push(exchange);
	const annotation = annotateLatest(world);
	emit(world, { kind: step, text, exchange: mask(world, exchange), ...(annotation ? { annotation } : {}) });
	if (!annotation) return { kind: 'done', observed: null, succeeded: false, problem: 'the exchange could not be annotated' };
	const observed = observedFrom(step, annotation);
	return { kind: 'done', observed, annotation, succeeded: observed.row === 'success' };
}
