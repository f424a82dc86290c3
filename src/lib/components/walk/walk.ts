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
