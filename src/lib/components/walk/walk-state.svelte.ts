/** The walk page's shared state: the server's view of the walk with the step runner, and the client form. */
import { tick } from 'svelte';
import { showExchange } from '$lib/components/exchange/showExchange';
import type { WalkView } from '$lib/flow/view';
import { appendQueryParams, buildAuthorisationLink } from '$lib/flow/link/link';
import { walkClock, type ShownClock } from '$lib/components/clock';
import { walkApi, type ApiResult } from './api';
import { formFromView } from './walk';

/** The server's view of the walk, as each step's answer brings it. The server keeps the saved copy, and the secret. */
export class WalkSession {
	view: WalkView;
	/** The clock the walk's times are shown on, measured again with each view the server sends. */
	clock: ShownClock;
	busy = $state(false);
	/** The exchange the explorer's server is sending now, if any: its step says so while it waits. */
	pending = $state<'token' | 'me' | null>(null);
	message = $state<string | null>(null);
	/** What the last step added, for screen readers (a polite live region reads it). */
	announcement = $state('');
	/** The grant code that came back, if one did. */
	readonly code: string | null;

	constructor(view: WalkView) {
		this.view = $state(view);
		this.clock = $state(walkClock(view.sandboxNow, Date.now()));
		this.code = $derived(this.view.callback?.result.kind === 'code' ? this.view.callback.result.code : null);
	}

	/** Runs a step; false when it failed, with its message shown. */
	async run(call: () => Promise<ApiResult<{ view: WalkView }>>): Promise<boolean> {
		this.busy = true;
		this.message = null;
		const result = await call();
		this.busy = false;
		if (!result.ok) {
			this.message = result.message;
			return false;
		}
		this.view = result.value.view;
		this.clock = walkClock(result.value.view.sandboxNow, Date.now());
		return true;
	}
}

/**
 * Runs a step that records a `step` exchange, then moves focus to the new exchange and announces it; when the step
 * failed, focus goes back to `control` (the button, disabled while the step ran, had dropped it to the page).
 */
export async function runAndShow(
	walk: WalkSession,
	step: 'token' | 'me',
	control: HTMLElement | undefined,
	call: () => Promise<ApiResult<{ view: WalkView }>>
): Promise<void> {
	walk.announcement = '';
	walk.pending = step;
	const ok = await walk.run(call).finally(() => (walk.pending = null));
	await tick();
	const added = ok ? walk.view.exchanges.filter((e) => e.exchange.step === step).at(-1) : undefined;
	if (added && showExchange(added.exchange.id)) {
		const { exchange, annotation } = added;
		const answer = exchange.response ? `${exchange.response.status} ${exchange.response.statusText}` : 'no response';
		walk.announcement = `New exchange, ${exchange.label}: ${answer}. ${annotation.title.replaceAll('`', '')}`;
	} else {
		control?.focus();
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
