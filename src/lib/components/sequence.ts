/** The four parties of the flow and the arrows between them, as SequenceDiagram.svelte draws them. */
import type { CallbackResult } from '$lib/flow/callback';
import { isUnsent, type RecordedExchange } from '$lib/flow/exchange';

export type Lane = 'browser' | 'client' | 'auth' | 'accounts';

export const LANES: readonly { id: Lane; name: string }[] = [
	{ id: 'browser', name: 'Browser' },
	{ id: 'client', name: 'Client application' },
	{ id: 'auth', name: 'Authorisation host' },
	{ id: 'accounts', name: 'Accounts host' }
];

/** Who played each part of a flow: the client application in words, the two hosts by their URLs. */
export interface FlowParties {
	client: string;
	authUrl: string;
	accountsUrl: string;
}

const hostOf = (url: string | null | undefined) => (url && URL.canParse(url) ? new URL(url).host : '');

/** The note under each lane's name: who the user is, the client, and each host's real name. */
export function laneNotes(parties: FlowParties): Record<Lane, string> {
	return {
		browser: 'the user',
		client: parties.client,
		auth: hostOf(parties.authUrl) || 'not seen',
		accounts: hostOf(parties.accountsUrl) || 'not seen'
	};
}

/** The redirect URI a run's browser came back to: the callback's address, else the one its link named. */
export function redirectSeen(link: string | null, callbackUrl: string | null | undefined): string | null {
	if (callbackUrl) return callbackUrl;
	return link && URL.canParse(link) ? new URL(link).searchParams.get('redirect_uri') : null;
}

/** A run's client: the explorer for what it ran itself, else the app, named by its redirect URI's host. */
export function clientParty(ranByExplorer: boolean, redirectUri: string | null): string {
	if (ranByExplorer) return 'this explorer';
	return hostOf(redirectUri) || 'the app';
}

/** `unsent`: an exchange recorded but never sent (a pasted command): not yet, rather than failed. */
export type StepState = 'pending' | 'done' | 'error' | 'cancel' | 'unsent';

export interface SequenceStep {
	id: string;
	label: string;
	from: Lane;
	to: Lane;
	state: StepState;
	/** The recorded exchange this arrow opens, when there is one. */
	exchangeId?: string;
}

/** What a walk or a saved run has done so far: enough to draw it. */
export interface FlowSoFar {
	/** Whether the browser was sent to the authorisation link. */
	link: boolean;
	callback: CallbackResult['kind'] | null;
	/** The app's own page at the redirect URI failed after the redirect (an imported HAR shows its answer). */
	appFailed?: boolean;
	/** The redirect URI the browser came back to, when known: its path labels the arrow to the client. */
	redirectUri?: string | null;
	/** The token and me.json exchanges shown on the page, in order (others are not drawn). */
	exchanges: readonly Pick<RecordedExchange, 'id' | 'step' | 'response' | 'failure'>[];
}

type Exchange = FlowSoFar['exchanges'][number];

const REQUEST = { token: 'POST /oauth/token', me: 'GET /api/v3/me.json' } as const;
const RESPONSE = { token: 'token response', me: 'verifications' } as const;

function responseState(exchange: Exchange): StepState {
	if (isUnsent(exchange)) return 'unsent';
	const status = exchange.response?.status;
	return !exchange.failure && status !== undefined && status >= 200 && status < 300 ? 'done' : 'error';
}

/** The request and response arrows of each exchange, both opening it. */
function exchangeArrows(exchange: Exchange, step: 'token' | 'me'): SequenceStep[] {
	const status = exchange.response ? `${exchange.response.status} ` : '';
	const unsent = isUnsent(exchange);
	return [
		{ id: `${exchange.id}-request`, label: `${REQUEST[step]}${unsent ? ' (not sent)' : ''}`, from: 'client', to: 'accounts', state: unsent ? 'unsent' : 'done', exchangeId: exchange.id },
		{ id: `${exchange.id}-response`, label: `${status}${RESPONSE[step]}`, from: 'accounts', to: 'client', state: responseState(exchange), exchangeId: exchange.id }
	];
}

/** The arrows of a step not taken yet: what comes next. */
function pendingArrows(step: 'token' | 'me'): SequenceStep[] {
	return [
		{ id: `${step}-request`, label: REQUEST[step], from: 'client', to: 'accounts', state: 'pending' },
		{ id: `${step}-response`, label: RESPONSE[step], from: 'accounts', to: 'client', state: 'pending' }
	];
}

const pathOf = (url: string | null | undefined) => (url && URL.canParse(url) ? new URL(url).pathname : null);

/**
 * The flow's arrows: the browser's three, then every token and me.json exchange in the order it was made (ten
 * attempts draw ten pairs), and the steps not taken yet as pending arrows.
 */
export function flowSteps(flow: FlowSoFar): SequenceStep[] {
	const cancelled = flow.callback === 'cancel';
	const callbackState: StepState = !flow.callback ? 'pending' : cancelled ? 'cancel' : flow.callback === 'code' ? 'done' : 'error';
	const drawn = flow.exchanges.filter((e): e is Exchange & { step: 'token' | 'me' } => e.step === 'token' || e.step === 'me');
	const exchanged = drawn.flatMap((e) => exchangeArrows(e, e.step));
	const pending = [
		...(drawn.some((e) => e.step === 'token') ? [] : pendingArrows('token')),
		...(drawn.some((e) => e.step === 'me') ? [] : pendingArrows('me'))
	];
	return [
		{ id: 'link', label: 'GET /sso/{supergroup}', from: 'browser', to: 'auth', state: flow.link ? 'done' : 'pending' },
		{ id: 'redirect', label: cancelled ? 'redirect without code (cancel)' : 'redirect with code', from: 'auth', to: 'browser', state: callbackState },
		{ id: 'callback', label: `GET ${pathOf(flow.redirectUri) ?? '(the redirect URI)'}`, from: 'browser', to: 'client', state: flow.appFailed ? 'error' : callbackState },
		...exchanged,
		...pending
	];
}

/** The id of the element showing an exchange, which the diagram's arrows open. */
export const exchangeElementId = (exchangeId: string) => `exchange-${exchangeId}`;
