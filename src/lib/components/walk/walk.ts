/** Pure helpers of the walk page: the sequence diagram's steps from a walk, and the redirect URI's parts. */
import type { WalkView } from '$lib/flow/view';

export type Lane = 'browser' | 'client' | 'auth' | 'accounts';
export type DiagramState = 'pending' | 'done' | 'error' | 'cancel';

export interface DiagramStep {
	id: string;
	label: string;
	from: Lane;
	to: Lane;
	state: DiagramState;
	exchangeId?: string;
}

function exchangeState(status: number | undefined): DiagramState {
	return status !== undefined && status >= 200 && status < 300 ? 'done' : 'error';
}

/** The seven arrows of the flow, filled in from what the walk has done (the latest exchange of each kind). */
export function walkDiagramSteps(view: WalkView): DiagramStep[] {
	const last = (step: 'token' | 'me') => view.exchanges.filter((e) => e.exchange.step === step).at(-1);
	const token = last('token');
	const me = last('me');
	const callback = view.callback;
	const cancelled = callback?.result.kind === 'cancel';
	const callbackState: DiagramState = !callback ? 'pending' : cancelled ? 'cancel' : callback.result.kind === 'code' ? 'done' : 'error';
	const response = (entry: typeof token): DiagramState =>
		entry ? (entry.exchange.failure ? 'error' : exchangeState(entry.exchange.response?.status)) : 'pending';

	return [
		{ id: 'authorise', label: 'GET /sso/{supergroup}', from: 'browser', to: 'auth', state: view.link ? 'done' : 'pending' },
		{
			id: 'redirect',
			label: cancelled ? 'redirect without code (cancel)' : 'redirect with code',
			from: 'auth',
			to: 'browser',
			state: callbackState
		},
		{ id: 'callback', label: 'GET /callback', from: 'browser', to: 'client', state: callbackState },
		{ id: 'token-request', label: 'POST /oauth/token', from: 'client', to: 'accounts', state: token ? 'done' : 'pending', exchangeId: token?.exchange.id },
		{ id: 'token-response', label: token?.exchange.response ? `${token.exchange.response.status} token response` : 'token response', from: 'accounts', to: 'client', state: response(token), exchangeId: token?.exchange.id },
		{ id: 'me-request', label: 'GET /api/v3/me.json', from: 'client', to: 'accounts', state: me ? 'done' : 'pending', exchangeId: me?.exchange.id },
		{ id: 'me-response', label: me?.exchange.response ? `${me.exchange.response.status} verifications` : 'verifications', from: 'accounts', to: 'client', state: response(me), exchangeId: me?.exchange.id }
	];
}

/** Splits a redirect URI into the registered part (before `?`) and its extra query parameters (4.1.1). */
export function splitRedirectUri(uri: string): { base: string; extras: [string, string][] } {
	const question = uri.indexOf('?');
	if (question === -1) return { base: uri, extras: [] };
	return { base: uri.slice(0, question), extras: [...new URLSearchParams(uri.slice(question + 1))] };
}

/** The walk form's fields, as the server last saved them. */
export function formFromView(view: WalkView) {
	const { base, extras } = splitRedirectUri(view.client.redirectUri);
	return {
		targetKind: view.target.kind,
		customAuthUrl: view.target.kind === 'custom' ? view.target.authUrl : '',
		customAccountsUrl: view.target.kind === 'custom' ? view.target.accountsUrl : '',
		clientId: view.client.clientId,
		redirectBase: base,
		redirectExtras: extras,
		supergroup: view.client.supergroup,
		country: view.client.country,
		responseType: view.client.responseType,
		extraLinkParams: view.client.extraLinkParams
	};
}

/**
 * The client the held grant code was issued to (the link's `client_id`), when it is not the walk's client now:
 * the client was changed after the code came back. Null otherwise.
 */
export function codeFromOtherClient(view: Pick<WalkView, 'link' | 'callback' | 'client'>): string | null {
	if (view.callback?.result.kind !== 'code' || !view.link || !URL.canParse(view.link)) return null;
	const issuedTo = new URL(view.link).searchParams.get('client_id');
	return issuedTo !== null && issuedTo !== view.client.clientId ? issuedTo : null;
}

/** What the client form would save, as far as its effect on the walk goes. */
export interface PendingSettings {
	target: { kind: 'sandbox' } | { kind: 'custom'; authUrl: string; accountsUrl: string };
	clientId: string;
	clientSecret?: string;
}

const sameBase = (a: string, b: string) => a.trim().replace(/\/+$/, '') === b.trim().replace(/\/+$/, '');

/** What saving `next` does to the walk so far, in a sentence; null when it changes nothing a person would miss. */
export function saveEffect(view: Pick<WalkView, 'target' | 'client' | 'callback' | 'link' | 'exchanges'>, next: PendingSettings): string | null {
	const targetChanged =
		next.target.kind !== view.target.kind ||
		(next.target.kind === 'custom' && !(sameBase(next.target.authUrl, view.target.authUrl) && sameBase(next.target.accountsUrl, view.target.accountsUrl)));
	const begun = view.link !== null || view.callback !== null;
	if (targetChanged) return begun ? 'Saving changes the target: a new walk starts, and the link, code and exchanges so far stay only in their saved run.' : null;
	const clientChanged = next.clientId !== view.client.clientId;
	const secretChanged = next.clientSecret !== undefined;
	if (!clientChanged && !secretChanged) return null;
	const code = view.callback?.result.kind === 'code';
	const exchanges = secretChanged && view.exchanges.length > 0 ? ' The exchanges so far stay in their saved run; a new run starts.' : '';
	if (code && clientChanged)
		return `Saving keeps the code received, which was issued to the client in the link; step 3 can then send it with ${next.clientId}'s credentials, as a tamper.${exchanges}`;
	if (code) return `Saving keeps the code received; the exchange sends it with the new secret.${exchanges}`;
	return begun && clientChanged ? 'The link in step 2 is built with the new client ID; open it again for a code issued to that client.' : null;
}
