/** Pure helpers of the walk page: the redirect URI's parts and the form's fields. */
import type { WalkView } from '$lib/flow/view';

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

/** Everything the client form saves that the link is built from. */
export interface LinkSettings extends PendingSettings {
	redirectUri: string;
	supergroup: string;
	country: string;
	responseType: string;
	extraLinkParams: [string, string][];
}

const sameTarget = (view: Pick<WalkView, 'target'>, next: LinkSettings['target']) =>
	next.kind === view.target.kind &&
	(next.kind === 'sandbox' || (sameBase(next.authUrl, view.target.authUrl) && sameBase(next.accountsUrl, view.target.accountsUrl)));

/** The form's fields whose values differ from the saved settings, named as the form labels them; none when saved. */
export function unsavedFields(view: Pick<WalkView, 'target' | 'client'>, next: LinkSettings): string[] {
	const saved = view.client;
	const extras = (params: [string, string][]) => JSON.stringify(params.filter(([n]) => n !== ''));
	const changed: [string, boolean][] = [
		['target', !sameTarget(view, next.target)],
		['client ID', next.clientId !== saved.clientId],
		['client secret', next.clientSecret !== undefined],
		['redirect URI', next.redirectUri !== saved.redirectUri],
		['supergroup', next.supergroup !== saved.supergroup],
		['country', next.country !== saved.country],
		['response_type', next.responseType !== saved.responseType],
		['extra link parameters', extras(next.extraLinkParams) !== extras(saved.extraLinkParams)]
	];
	return changed.filter(([, differs]) => differs).map(([name]) => name);
}

/** What saving `next` does to the walk so far, in a sentence; null when it changes nothing a person would miss. */
export function saveEffect(view: Pick<WalkView, 'target' | 'client' | 'callback' | 'link' | 'exchanges'>, next: PendingSettings): string | null {
	const targetChanged = !sameTarget(view, next.target);
	const begun = view.link !== null || view.callback !== null;
	if (targetChanged) {
		// The server holds a secret for its target only (server/held-secret.ts).
		const secretGoes = view.client.secret.set && next.clientSecret === undefined ? "The client secret held is for the current target only: type the new target's (the sandbox's demo client has its own)." : null;
		const newWalk = begun ? 'Saving changes the target: a new walk starts, and the link, code and exchanges so far stay only in their saved run.' : null;
		return [newWalk, secretGoes].filter((s) => s !== null).join(' ') || null;
	}
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
