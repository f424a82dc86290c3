import { describe, expect, it } from 'vitest';
import type { ComponentProps } from 'svelte';
import { render } from 'svelte/server';
import type { RecordedExchange } from '$lib/flow/exchange';
import { MASK } from '$lib/http/exchange';
import { reusedCodeAnnotation } from '$lib/features/runs/pure/test-helpers';
import ExchangeView from './ExchangeView.svelte';

const exchange: RecordedExchange = {
	id: 'x1',
	step: 'token',
	label: 'exchange the code (query string)',
	startedAt: '2030-01-01T12:00:00Z',
	durationMs: 12,
	request: {
		method: 'POST',
		url: `http://127.0.0.1:4002/oauth/token?code=abc&client_secret=${MASK}`,
		headers: [{ name: 'User-Agent', value: 'explorer' }],
		body: null
	},
	response: {
		status: 400,
		statusText: 'Bad Request',
		headers: [{ name: 'Content-Type', value: 'application/json' }],
		body: '{"error":"invalid_grant","error_description":"<b>used</b>"}',
		truncated: false
	},
	failure: null,
	masked: [
		{ kind: 'client_secret', where: 'query parameter client_secret', hint: '' },
		{ kind: 'access_token', where: 'response body access_token', hint: '…a1b2' }
	]
};

const annotation = reusedCodeAnnotation;

const html = (props: ComponentProps<typeof ExchangeView>) => render(ExchangeView, { props }).body;

describe('ExchangeView', () => {
	it('marks the step and the annotation for tests, and links the row and cause to the reference page', () => {
		const body = html({ exchange, annotation });
		expect(body).toContain('data-testid="exchange-token"');
		expect(body).toContain('data-testid="annotation"');
		expect(body).toContain('data-outcome="error"');
		expect(body).toContain('data-row="token-invalid-grant"');
		expect(body).toContain('href="/reference#token-invalid-grant"');
		expect(body).toContain('href="/reference#token-invalid-grant-used"');
	});

	it('shows the request and response as escaped HTTP text before highlighting arrives', () => {
		const body = html({ exchange });
		expect(body).toContain(`POST /oauth/token?code=abc&amp;client_secret=${MASK} HTTP/1.1`);
		expect(body).toContain('HTTP/1.1 400 Bad Request');
		expect(body).not.toContain('<b>used</b>');
	});

	it('offers reveal for tokens only, never for the client secret', () => {
		const body = html({ exchange, onreveal: () => {} });
		expect(body).toContain('Reveal access token');
		expect(body).not.toContain('Reveal client secret');
		expect(body).toContain('client secret</strong> masked');
	});

	it('shows a transport failure, and a cancel without error styling', () => {
		const failed = html({
			exchange: { ...exchange, response: null, failure: { kind: 'unreachable', message: 'connect ECONNREFUSED' } }
		});
		expect(failed).toContain('The target could not be reached');
		expect(failed).toContain('connect ECONNREFUSED');
		const cancelled = html({
			exchange,
			annotation: { outcome: 'cancel', title: 'Cancelled', summary: 'Not an error.', candidates: [] }
		});
		expect(cancelled).toContain('data-outcome="cancel"');
		expect(cancelled).toMatch(/class="annotation cancel/);
		expect(cancelled).not.toMatch(/class="annotation error/);
	});
});
