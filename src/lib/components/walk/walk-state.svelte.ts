/** The walk page's shared state: the server's view of the walk with the step runner, and the client form. */
import { applyStep, type WalkStep, type WalkView } from '$lib/flow/view';
import { appendQueryParams, buildAuthorisationLink } from '$lib/flow/link';
import { walkApi, type ApiResult } from './api';
import { formFromView } from './walk';

/**
 * The server's view of the walk; each API answer says what its step changed, merged in here. The server keeps the
 * saved copy, and the secret.
 */
export class WalkSession {
	view: WalkView;
	busy = $state(false);
	message = $state<string | null>(null);
	/** The grant code that came back, if one did. */
	readonly code: string | null;

	constructor(view: WalkView) {
		this.view = $state(view);
		this.code = $derived(this.view.callback?.result.kind === 'code' ? this.view.callback.result.code : null);
	}

	/** The view after `step`; the whole view again when another tab moved the same walk on meanwhile. */
	async #afterStep(step: WalkStep): Promise<ApiResult<WalkView>> {
		const merged = applyStep(this.view, step);
		if (merged) return { ok: true, value: merged };
		const whole = await walkApi.view();
		return whole.ok ? { ok: true, value: whole.value.view } : whole;
	}

	/** Runs a step; false when the step itself failed (a view that cannot be refreshed afterwards does not undo it). */
	async run(call: () => Promise<ApiResult<{ step: WalkStep }>>): Promise<boolean> {
		this.busy = true;
		this.message = null;
		const result = await call();
		const next = result.ok ? await this.#afterStep(result.value.step) : null;
		this.busy = false;
		if (!result.ok) {
			this.message = result.message;
			return false;
		}
		if (next?.ok) this.view = next.value;
		else if (next) this.message = `Done, but the page could not show the result: ${next.message} Reload the page to see it.`;
		return true;
	}
}

/** The target and client form: starts from the saved view and is edited locally until saved. */
export class WalkForm {
	targetKind: WalkView['target']['kind'];
	customAuthUrl: string;
	customAccountsUrl: string;
	clientId: string;
	secretInput = $state('');
	redirectBase: string;
	redirectExtras: [string, string][];
	supergroup: string;
	country: string;
	responseType: string;
	extraLinkParams: [string, string][];

	readonly authUrl: string;
	readonly accountsUrl: string;
	readonly redirectUri: string;
	readonly link: string;

	/** `sandbox`: the built-in sandbox's two hosts, the target when `targetKind` is 'sandbox'. */
	constructor(view: WalkView, sandbox: { authUrl: string; accountsUrl: string }) {
		const initial = formFromView(view);
		this.targetKind = $state(initial.targetKind);
		this.customAuthUrl = $state(initial.customAuthUrl);
		this.customAccountsUrl = $state(initial.customAccountsUrl);
		this.clientId = $state(initial.clientId);
		this.redirectBase = $state(initial.redirectBase);
		this.redirectExtras = $state(initial.redirectExtras);
		this.supergroup = $state(initial.supergroup);
		this.country = $state(initial.country);
		this.responseType = $state(initial.responseType);
		this.extraLinkParams = $state(initial.extraLinkParams);
		this.authUrl = $derived(this.targetKind === 'sandbox' ? sandbox.authUrl : this.customAuthUrl);
		this.accountsUrl = $derived(this.targetKind === 'sandbox' ? sandbox.accountsUrl : this.customAccountsUrl);
		this.redirectUri = $derived(appendQueryParams(this.redirectBase, this.redirectExtras.filter(([n]) => n !== '')));
		this.link = $derived(
			buildAuthorisationLink({
				authUrl: this.authUrl,
				supergroup: this.supergroup,
				responseType: this.responseType,
				clientId: this.clientId,
				redirectUri: this.redirectUri,
				country: this.country,
				extraLinkParams: this.extraLinkParams.filter(([n]) => n !== '')
			})
		);
	}

	/** What the client step saves; the secret only when one was typed. */
	settings() {
		return {
			target:
				this.targetKind === 'sandbox'
					? { kind: 'sandbox' as const }
					: { kind: 'custom' as const, authUrl: this.customAuthUrl, accountsUrl: this.customAccountsUrl },
			clientId: this.clientId,
			...(this.secretInput !== '' ? { clientSecret: this.secretInput } : {}),
			redirectUri: this.redirectUri,
			supergroup: this.supergroup,
			country: this.country,
			responseType: this.responseType,
			extraLinkParams: this.extraLinkParams
		};
	}

	/** Saves the settings; the typed secret is cleared once the server holds it. False when saving failed. */
	async save(session: WalkSession): Promise<boolean> {
		if (!(await session.run(() => walkApi.saveClient(this.settings())))) return false;
		this.secretInput = '';
		return true;
	}
}
