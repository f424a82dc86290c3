/**
 * What the browser and the saved run get of a walk: its view (every exchange masked, annotated, with its curl
 * command), the step's difference for the page to merge, and the run it is saved as.
 */
import { codeExpiresAt } from '$lib/flow/callback';
import { maskExchange } from '$lib/flow/mask';
import { callbackTime, flowIso } from '$lib/flow/flow-time';
import type { CallbackView, ExchangeEntry, WalkStep, WalkView } from '$lib/flow/view';
import { walkTitle, type KnownSecrets, type Run } from '$lib/features/runs/pure';
import type { Frozen } from '$lib/frozen';
import { linkFindings, secretsOf, secretValue, shownAs, walkRecord, type Walk, type WalkEntry, type WalkSecrets } from './walk';

/** An exchange as the browser may see it, masked again only when the walk's secrets changed since. */
function shownEntry(entry: WalkEntry, secrets: WalkSecrets, secretsKey: string): ExchangeEntry {
	if (entry.shown?.secretsKey !== secretsKey) entry.shown = shownAs(maskExchange(entry.exchange, secrets), entry.annotation, secrets);
	return entry.shown.entry;
}

/** What the browser may see of the walk. */
export function walkView(walk: Walk, sandboxNow: Date | null): WalkView {
	const secrets = secretsOf(walk);
	const secretsKey = JSON.stringify(secrets);
	const secret = secretValue(walk);
	return {
		target: { kind: walk.target.kind, authUrl: walk.target.authUrl, accountsUrl: walk.target.accountsUrl },
		client: {
			clientId: walk.client.clientId,
			secret: { set: Boolean(secret), ...(secret && secret.length >= 12 ? { last: secret.slice(-2) } : {}) },
			redirectUri: walk.client.redirectUri,
			supergroup: walk.client.supergroup,
			country: walk.client.country,
			responseType: walk.client.responseType,
			extraLinkParams: walk.client.extraLinkParams
		},
		link: walk.link,
		serverFindings: walk.link ? linkFindings(walk, walk.link) : [],
		callback: walk.callback && callbackView(walk.callback),
		exchanges: walk.exchanges.map((entry) => shownEntry(entry, secrets, secretsKey)),
		hasAccessToken: walk.accessToken !== null,
		sandboxNow: sandboxNow?.toISOString() ?? null
	};
}

/** The redirect as the page shows it: on the walk's clock (the sandbox's against the sandbox), as the codes expire. */
function callbackView(callback: NonNullable<Walk['callback']>): CallbackView {
	const receivedAt = flowIso(callbackTime(callback));
	return {
		url: callback.url,
		receivedAt,
		result: callback.result,
		...(callback.result.kind === 'code' ? { codeExpiresAt: codeExpiresAt(new Date(receivedAt)).toISOString() } : {})
	};
}

/** Where a step starts from: the exchanges as last shown (undefined: never shown), and the last one's id. */
export interface StepBase {
	shown: (ExchangeEntry | undefined)[];
	lastId: string | null;
}

/** Taken before a step changes the walk, so its answer can say what changed (`walkStep`). */
export function stepBase(walk: Walk): StepBase {
	return { shown: walk.exchanges.map((e) => e.shown?.entry), lastId: walk.exchanges.at(-1)?.exchange.id ?? null };
}

/**
 * A step's answer: the view without its exchanges, and the exchanges from the first one that is not what was
 * shown before the step (a new one, or one masked again because the walk learnt a token). Its size does not grow
 * with the walk. The browser merges it with `applyStep`, given it holds what the walk held before the step.
 */
export function walkStep(walk: Walk, sandboxNow: Date | null, before: StepBase): WalkStep {
	const { exchanges, ...view } = walkView(walk, sandboxNow);
	let from = 0;
	while (from < before.shown.length && from < exchanges.length && before.shown[from] === exchanges[from]) from++;
	return { view, base: { count: before.shown.length, lastId: before.lastId }, from, exchanges: exchanges.slice(from) };
}

/** The walk as a run to save, unredacted; the run store redacts it with `walkSecrets`. */
export function walkToRun(walk: Walk, sandboxNow: Date | null, now: Date): Frozen<Run> {
	const last = walk.exchanges.at(-1);
	return {
		id: walk.runId,
		title: walkTitle({
			where: walk.target.kind === 'sandbox' ? 'Sandbox' : new URL(walk.target.accountsUrl).host,
			clientId: walk.linkClientId ?? walk.client.clientId,
			cancelled: walk.callback?.result.kind === 'cancel',
			...(last ? { last } : {})
		}),
		createdAt: walk.callback?.receivedAt ?? now.toISOString(),
		...walkRecord(walk, walk.exchanges.map((e) => e.exchange)),
		sandboxClock: sandboxNow?.toISOString() ?? null,
		redactions: [],
		source: 'walk'
	};
}

/** What must never be stored or exported from this walk. */
export function walkSecrets(walk: Walk): KnownSecrets {
	const { clientSecret, accessTokens, refreshTokens } = secretsOf(walk);
	return { clientSecrets: clientSecret ? [clientSecret] : [], tokens: [...accessTokens, ...refreshTokens] };
}
