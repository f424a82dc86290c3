import { describe, expect, it } from 'vitest';
import type { RecordedExchange } from '$lib/flow/exchange';
import { runToHar } from './har/har';
import { hideLiveCodes, liveCodes } from './usable-codes';
import { WHAT } from './redact/redact-name';
import { describeRedactions } from './redact/redact-assembly';
import { redactRun } from './redact/redact';
import { runToMarkdown } from './report';
import { runToShellScript } from './shell-script';
import { diagnoseRun } from './diagnose-run';
import type { Run } from './run';

const CODE = 'LiveCode-0123456789abcdef';
const ARRIVED = '2026-11-22T10:00:05.000Z';
const minutesAfter = (minutes: number) => new Date(Date.parse(ARRIVED) + minutes * 60_000);

function tokenExchange(status: number): RecordedExchange {
	return {
		id: 'x1',
		step: 'token',
		label: 'exchange the code (form)',
		startedAt: '2026-11-22T10:00:06.000Z',
		durationMs: 12,
		request: {
			method: 'POST',
			url: 'http://localhost:3002/oauth/token',
			headers: [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
			body: `grant_type=authorization_code&code=${CODE}&client_id=demo-client&client_secret=%E2%80%A2`
		},
		response: { status, statusText: '', headers: [], body: status === 200 ? '{"token_type":"Bearer"}' : '{"error":"invalid_client"}', truncated: false },
		failure: null,
		masked: []
	};
}

function run(exchanges: RecordedExchange[] = []): Run {
	return {
		id: 'run-1',
		title: 'Walk against the sandbox',
		createdAt: ARRIVED,
		target: { kind: 'sandbox', authUrl: 'http://localhost:3001', accountsUrl: 'http://localhost:3002' },
		sandboxClock: null,
		link: 'http://localhost:3001/sso/student?response_type=code&client_id=demo-client&country=uk',
		callback: { url: `http://localhost:3000/callback?code=${CODE}`, receivedAt: ARRIVED },
		exchanges,
		redactions: [],
		source: 'walk'
	};
}

describe('live grant codes', () => {
	it('a code that reached the callback is live until it is exchanged or 2 hours have passed', () => {
		expect(liveCodes(run(), minutesAfter(1))).toEqual([CODE]);
		expect(liveCodes(run(), minutesAfter(119))).toEqual([CODE]);
		expect(liveCodes(run(), minutesAfter(120))).toEqual([]);
		expect(liveCodes(run([tokenExchange(200)]), minutesAfter(1))).toEqual([]);
		// A refused exchange did not use the code up.
		expect(liveCodes(run([tokenExchange(401)]), minutesAfter(1))).toEqual([CODE]);
	});

	it("reads a code's age on the sandbox's clock, as the walk does: a code that arrived after the clock moved 2 hours is live", () => {
		// The walk records real time and the sandbox's lead (flow-time.ts); the sandbox's clock is what `now` is.
		const ahead = run();
		ahead.callback = { ...ahead.callback!, sandboxOffsetMs: 120 * 60_000 };
		expect(liveCodes(ahead, minutesAfter(121))).toEqual([CODE]);
		expect(liveCodes(ahead, minutesAfter(240))).toEqual([]);
	});

	it('hides a live code everywhere: the page data and every export', () => {
		const hidden = hideLiveCodes(run([tokenExchange(401)]), minutesAfter(1));
		const texts = [JSON.stringify(hidden), JSON.stringify(runToHar(hidden)), runToMarkdown(hidden, diagnoseRun(hidden), { origin: 'http://localhost:3000' }), runToShellScript(hidden, { origin: 'http://localhost:3000' })];
		for (const text of texts) {
			expect(text).not.toContain(CODE);
			expect(text).toContain('hidden-code-1');
		}
		expect(hidden.redactions).toContainEqual({ what: WHAT.hiddenCode, where: 'hidden-code-1' });
		expect(hidden.id).toBe('run-1');
	});

	it('notes the hidden code by the name the texts show, and no longer says it was kept visible', () => {
		const hidden = hideLiveCodes(redactRun(run([tokenExchange(401)])), minutesAfter(1));
		expect(describeRedactions(hidden.redactions)).toContain(
			"hid the grant code that can still be exchanged, shown as hidden-code-1: only the run's owner sees it, until it is used or expires"
		);
		expect(describeRedactions(hidden.redactions).join('\n')).not.toContain('kept the grant code visible');
	});

	it('hides a live code that travels only in a JSON token request (no callback carried it)', () => {
		const json = tokenExchange(401);
		const imported: Run = {
			...run([{ ...json, request: { ...json.request, headers: [{ name: 'Content-Type', value: 'application/json' }], body: `{"grant_type":"authorization_code","code":"${CODE}"}` } }]),
			callback: null
		};
		expect(liveCodes(imported, minutesAfter(1))).toEqual([CODE]);
		expect(JSON.stringify(hideLiveCodes(imported, minutesAfter(1)))).not.toContain(CODE);
	});

	it('leaves a run whose codes are spent or expired as it is', () => {
		const spent = run([tokenExchange(200)]);
		expect(hideLiveCodes(spent, minutesAfter(1))).toBe(spent);
		const expired = run();
		expect(hideLiveCodes(expired, minutesAfter(121))).toBe(expired);
	});
});
