/**
 * What the browser and the saved run get of a walk: its view (every exchange masked, annotated, with its curl
 * command) and the run it is saved as.
 */
import { codeExpiresAt } from '$lib/flow/callback';
import { callbackTime, flowIso } from '$lib/flow/flow-time';
import type { CallbackView, WalkView } from '$lib/flow/view';
import { newRun, walkTitle, type KnownSecrets, type Run } from '$lib/features/runs/pure';
import type { Frozen } from '$lib/frozen';
import { secretsKey, secretsOf, secretValue, serverFindings, shownEntry, walkRecord, type Walk } from './walk';

/** What the browser may see of the walk. */
export function walkView(walk: Walk, sandboxNow: Date | null): WalkView {
	const secrets = secretsOf(walk);
	const key = secretsKey(secrets);
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
		serverFindings: walk.link ? serverFindings(walk, walk.link) : [],
		callback: walk.callback && callbackView(walk.callback),
		exchanges: walk.exchanges.map((entry) => shownEntry(entry, secrets, key)),
		hasAccessToken: walk.accessToken !== null,
		codeExchanged: walk.codeExchanged,
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

/** The walk as a run to save, unredacted; the run store redacts it with `walkSecrets`. */
export function walkToRun(walk: Walk, sandboxNow: Date | null, now: Date): Frozen<Run> {
	const last = walk.exchanges.at(-1);
	return newRun({
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
		source: 'walk'
	});
}

/** What must never be stored or exported from this walk. */
export function walkSecrets(walk: Walk): KnownSecrets {
	const { clientSecret, accessTokens, refreshTokens } = secretsOf(walk);
	return { clientSecrets: clientSecret ? [clientSecret] : [], tokens: [...accessTokens, ...refreshTokens] };
}
