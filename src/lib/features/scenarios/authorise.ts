/**
 * The authorise step: the link with the step's changes, then what the user's side gives back. On the sandbox the
 * control API answers for the page (`POST /sandbox/authorize`); without it a supplied or made-up code stands in for
 * the browser, or, as the last step, the page itself is read for 7.1's message.
 */
import { headerValue } from '$lib/http/headers';
import { annotateAuthorisationError, authorisationRow, shownAuthorisationRow } from '$lib/flow/diagnose/authorisation-page';
import { classifyCallback } from '$lib/flow/callback';
import { annotateCallback, type Annotation } from '$lib/flow/diagnose/diagnose';
import type { RecordedExchange } from '$lib/flow/exchange';
import { buildAuthorisationLink } from '$lib/flow/link/link';
import { send, type OutboundRequest } from '$lib/platform/outbound/outbound';
import { USER_AGENT } from '$lib/platform/outbound/requests';
import { SCENARIO_COUNTRY, SCENARIO_SUPERGROUP, type LinkParam, type Step } from '$lib/features/scenarios/pure/library';
import { control, stringOr, type ControlAnswer } from './control-api';
import { emit, fill, mask, observedFrom, party, type Outcome, type Party, type World } from './world';

type AuthoriseStep = Extract<Step, { kind: 'authorise' }>;

/** The link's parameters after the step's changes; an omitted parameter is absent. */
function linkParams(world: World, step: AuthoriseStep): { party: Party; params: Partial<Record<LinkParam, string>>; link: string } {
	const p = party(world, step.as ?? 'main');
	const all: Record<LinkParam, string> = {
		response_type: 'code',
		client_id: p.clientId,
		redirect_uri: p.redirectUri,
		country: SCENARIO_COUNTRY
	};
	for (const [name, value] of Object.entries(step.set ?? {}) as [LinkParam, string][]) all[name] = fill(world, value, p);
	const omitted = new Set(step.omit ?? []);
	const params = Object.fromEntries(Object.entries(all).filter(([name]) => !omitted.has(name as LinkParam)));
	const built = buildAuthorisationLink({
		authUrl: world.ctx.authUrl,
		supergroup: SCENARIO_SUPERGROUP,
		responseType: all.response_type,
		clientId: all.client_id,
		redirectUri: all.redirect_uri,
		country: all.country
	});
	return { party: p, params, link: withoutParams(built, omitted) };
}

/** The link with the named query parameters removed, every other byte kept. */
function withoutParams(link: string, names: Set<string>): string {
	if (names.size === 0) return link;
	const [base, query = ''] = link.split('?', 2) as [string, string?];
	const kept = query.split('&').filter((pair) => !names.has(decodeURIComponent(pair.split('=')[0]!)));
	return kept.length ? `${base}?${kept.join('&')}` : base;
}

export function authoriseText(step: AuthoriseStep): string {
	const changes = [
		...(step.as === 'other' ? ['as the second client'] : []),
		...Object.entries(step.set ?? {}).map(([name, value]) => `${name}=${value}`),
		...(step.omit ?? []).map((name) => `no ${name}`)
	];
	const what = step.decision === 'cancel' ? 'The user cancels on the authorisation page' : 'The user authorises on the authorisation page';
	return `${what}${changes.length ? ` (link with ${changes.join(', ')})` : ''}`;
}

/** `POST /sandbox/authorize`: what the page would do for this link and decision, without a browser. */
export async function authoriseHeadless(world: World, step: AuthoriseStep): Promise<Outcome> {
	const { party: p, params, link } = linkParams(world, step);
	const decision = step.decision ?? 'authorize';
	world.run.link = link;
	world.linkRedirectUri = params.redirect_uri ?? null;
	const answer = await control(
		world,
		'/sandbox/authorize',
		{ supergroup: SCENARIO_SUPERGROUP, ...params, login: world.user?.login ?? '', decision },
		'sign-in',
		`${authoriseText(step)} (headless: POST /sandbox/authorize)`
	);
	world.run.exchanges.push(answer.exchange);
	const location = answer.status === 200 && typeof answer.body['location'] === 'string' ? answer.body['location'] : null;
	let annotation: Annotation;
	if (location) {
		world.run.callback = { url: location, receivedAt: answer.exchange.startedAt };
		const callback = classifyCallback(location, { redirectUri: params.redirect_uri ?? p.redirectUri });
		world.code = callback.kind === 'code' ? callback.code : null;
		annotation = annotateCallback(callback);
	} else {
		const row = authorisationRow(answer.body['row']);
		annotation = row ? annotateAuthorisationError(row, stringOr(answer.body['cause']), stringOr(answer.body['detail'])) : noCallbackAnnotation(answer);
	}
	emit(world, { kind: 'authorise', text: authoriseText(step), exchange: mask(world, answer.exchange), annotation });
	const observed = observedFrom('authorise', annotation);
	const succeeded = observed.row === (decision === 'cancel' ? 'cancel' : 'success');
	return { kind: 'done', observed, annotation, succeeded, ...(succeeded ? {} : { problem: `${annotation.title}. ${annotation.summary}` }) };
}

function noCallbackAnnotation(answer: ControlAnswer): Annotation {
	const error = stringOr(answer.body['error']);
	return {
		outcome: answer.exchange.failure ? 'transport' : 'error',
		title: answer.exchange.failure ? 'No answer from the sandbox control API' : `${answer.status}: no redirect`,
		summary: answer.exchange.failure?.message ?? error ?? 'The sandbox answered without a redirect or a 7.1 row.',
		candidates: []
	};
}

/** Without the control API: a supplied code, a cancel, or a made-up code stands in for the user's browser. */
export function standInForBrowser(world: World, step: AuthoriseStep, isFirst: boolean): Outcome {
	const { party: p, params, link } = linkParams(world, step);
	world.run.link = link;
	world.linkRedirectUri = params.redirect_uri ?? null;
	const supplied = world.scenario.custom === 'code' && isFirst ? world.ctx.supplied?.code : undefined;
	const cancelled = step.decision === 'cancel';
	world.code = cancelled ? null : (supplied ?? `stand-in-${world.suffix}`);
	const redirectUri = params.redirect_uri ?? p.redirectUri;
	const url = world.code === null ? redirectUri : `${redirectUri}${redirectUri.includes('?') ? '&' : '?'}code=${encodeURIComponent(world.code)}`;
	world.run.callback = { url, receivedAt: new Date().toISOString() };
	const text = cancelled
		? 'No browser: the redirect a cancel gives (no `code`) stands in for the user cancelling.'
		: supplied
			? 'The grant code supplied on the command line stands in for the user authorising.'
			: 'No browser: a made-up code stands in for the user authorising (this row does not depend on the code).';
	emit(world, { kind: 'stand-in', text });
	return { kind: 'done', observed: null, succeeded: true };
}

/** Without the control API, a 7.1 row is read from the page itself: shown to the user, never redirected. */
export async function readLinkPage(world: World, step: AuthoriseStep): Promise<Outcome> {
	const { party: p, link } = linkParams(world, step);
	world.run.link = link;
	const request: OutboundRequest = {
		method: 'GET',
		url: link,
		headers: [
			{ name: 'User-Agent', value: USER_AGENT },
			{ name: 'Accept', value: 'text/html' }
		],
		body: null
	};
	const exchange = await send(request, { config: world.ctx.config, step: 'link', label: `${authoriseText(step)}: open the link` });
	world.run.exchanges.push(exchange);
	const reading = readPage(exchange, p.redirectUri);
	emit(world, { kind: 'authorise', text: authoriseText(step), exchange: mask(world, exchange), annotation: reading.annotation });
	if (reading.skip) return { kind: 'skip', reason: reading.skip };
	return { kind: 'done', observed: observedFrom('authorise', reading.annotation), annotation: reading.annotation, succeeded: false };
}

function readPage(exchange: RecordedExchange, redirectUri: string): { annotation: Annotation; skip?: string } {
	const note = (outcome: Annotation['outcome'], title: string, summary: string): Annotation => ({ outcome, title, summary, candidates: [] });
	const response = exchange.response;
	if (!response) return { annotation: note('transport', 'No answer from the authorisation page', exchange.failure?.message ?? 'No response.') };
	const location = headerValue(response.headers, 'location');
	if (response.status >= 300 && response.status < 400 && location) {
		const registered = redirectUri.split('?')[0]!;
		if (location.startsWith(registered)) {
			return { annotation: note('error', 'Redirected to the redirect URI', `The page redirected to ${location}; a 7.1 error is shown to the user, never redirected.`) };
		}
		const annotation = note('transport', 'Redirected elsewhere', `The page redirected to ${location}, probably a login page.`);
		return { annotation, skip: `The page redirected to ${location} (probably to sign in first); check the error in a browser.` };
	}
	const shown = shownAuthorisationRow(response.body);
	if (shown) return { annotation: annotateAuthorisationError(shown) };
	const annotation = note('transport', 'None of 7.1\'s messages on the page', `The page answered ${response.status} without any of 7.1's messages.`);
	return { annotation, skip: 'The page shows none of 7.1\'s messages (it may ask the user to sign in first); check the error in a browser.' };
}
