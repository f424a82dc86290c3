/** Builders for the flow engine's tests: a recorded flow and its exchanges with little noise. */
import type { RecordedExchange, StepId } from './exchange';
import type { HttpHeader } from '$lib/http/exchange';
import type { FlowRecord } from './record';

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

/** A flow against a custom target with nothing recorded, but what `partial` gives. */
export function flow(partial: Partial<FlowRecord>): FlowRecord {
	return {
		target: { kind: 'custom', authUrl: 'https://auth.example.com', accountsUrl: 'https://accounts.example.com' },
		sandboxClock: null,
		link: null,
		callback: null,
		exchanges: [],
		...partial
	};
}
