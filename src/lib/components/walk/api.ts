/** Browser-side calls to the explorer's walk API. Every failure comes back as a message a person can act on. */
import type { WalkView } from '$lib/flow/view';

export type ApiResult<T> = { ok: true; value: T } | { ok: false; message: string };

export async function postJson<T>(path: string, body: unknown): Promise<ApiResult<T>> {
	let response: Response;
	try {
		response = await fetch(path, {
			method: 'POST',
			headers: { 'content-type': 'application/json', accept: 'application/json' },
			body: JSON.stringify(body ?? {})
		});
	} catch {
		return { ok: false, message: NO_ANSWER };
	}
	return resultOf<T>(response.status, await response.json().catch(() => null));
}

export const NO_ANSWER = 'The explorer server did not answer. Is `npm start` still running?';

/** An answer of the explorer's API: its JSON, or on a 4xx or 5xx the message it carries. */
export function resultOf<T>(status: number, payload: unknown): ApiResult<T> {
	if (status >= 200 && status < 300) return { ok: true, value: payload as T };
	const message =
		payload && typeof payload === 'object' && 'message' in payload && typeof payload.message === 'string'
			? payload.message
			: `The explorer answered ${status}.`;
	return { ok: false, message };
}

/** Each step answers the whole view after it. */
export const walkApi = {
	saveClient: (settings: unknown) => postJson<{ view: WalkView }>('/api/walk/client', settings),
	start: (link: string) => postJson<{ view: WalkView }>('/api/walk/start', { link }),
	exchange: (options: unknown) => postJson<{ view: WalkView }>('/api/walk/exchange', options),
	readMe: (options: unknown) => postJson<{ view: WalkView }>('/api/walk/me', options),
	reveal: (exchangeId: string, kind: 'access_token' | 'refresh_token') =>
		postJson<{ value: string }>('/api/walk/reveal', { exchangeId, kind }),
	reset: () => postJson<{ view: WalkView }>('/api/walk/reset', {}),
	/** Uses (`true`) or ignores the redirect the walk was not waiting for (WalkView.strayCallback). */
	stray: (use: boolean) => postJson<{ view: WalkView }>('/api/walk/stray', { use })
};
