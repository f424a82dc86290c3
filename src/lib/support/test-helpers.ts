/** Builders for tests: a run and its exchanges with little noise. */
import type { RecordedExchange, StepId } from '$lib/flow/exchange';
import type { HttpHeader } from '$lib/http/exchange';
import type { Run } from './run';

export function headers(record: Record<string, string>): HttpHeader[] {
	return Object.entries(record).map(([name, value]) => ({ name, value }));
}

export function exchange(
	step: StepId,
	request: { method?: string; url: string; headers?: Record<string, string>; body?: string | null },
	response?: { status: number; headers?: Record<string, string>; body?: string },
	id = `${step}-1`
): RecordedExchange {
	return {
		id,
		step,
		label: step,
		startedAt: '2026-01-01T10:00:00.000Z',
		durationMs: 12,
		request: {
			method: request.method ?? 'GET',
			url: request.url,
			headers: headers(request.headers ?? {}),
			body: request.body ?? null
		},
		response: response
			? {
					status: response.status,
					statusText: response.status === 200 ? 'OK' : 'Error',
					headers: headers(response.headers ?? {}),
					body: response.body ?? '',
					truncated: false
				}
			: null,
		failure: null,
		masked: []
	};
}

export function run(partial: Partial<Run>): Run {
	return {
		id: 'run-1',
		title: 'a run',
		createdAt: '2026-01-01T09:59:00.000Z',
		target: { kind: 'custom', authUrl: 'https://auth.example.com', accountsUrl: 'https://accounts.example.com' },
		sandboxClock: null,
		link: null,
		callback: null,
		exchanges: [],
		redactions: [],
		source: 'walk',
		...partial
	};
}

/** Every form a secret could leak in: raw, URI-encoded, form-encoded (`+`), JSON-escaped, base64 of `id:secret`. */
export function leakForms(secret: string, clientIds: string[] = []): string[] {
	const b64 = (text: string) => btoa(text);
	return [
		secret,
		encodeURIComponent(secret),
		new URLSearchParams({ v: secret }).toString().slice(2),
		JSON.stringify(secret).slice(1, -1),
		...clientIds.flatMap((id) => [b64(`${id}:${secret}`), b64(`${id}:${encodeURIComponent(secret)}`)])
	];
}

/** The forms of `secret` found in `text`; empty when it did not leak. */
/** The secrets, tokens and password in the HAR fixtures (fixtures/), and their cookies' values: none may survive an import. */
export const FIXTURE_SECRETS = ['Sh0p-Secret-4f8a9b2c1d', 'Wrong-Secret-0000', 'at_7Yq2Lm9Xw4Rt8Kp3Vn6Bz1Cd', 'rt_3Hs8Jk2Lp9Qw4Er7Ty1Ui6Op', 'correct horse'];
export const FIXTURE_COOKIES = ['9f8e7d6c5b4a', 'aa11bb22cc33', 'dd44ee55ff66', 'GA1.2.111.222'];

export function leaks(text: string, secret: string, clientIds: string[] = []): string[] {
	return leakForms(secret, clientIds).filter((form) => text.includes(form));
}
