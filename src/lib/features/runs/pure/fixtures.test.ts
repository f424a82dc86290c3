/** The hand-written HAR fixtures: each error row, a cancel, a success, and a browser's HAR full of other requests. */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { harToRun, runToHar } from './har/har';
import { diagnoseRun } from './diagnose-run';
import { flowVerdict } from '$lib/flow/verdict';
import { runToMarkdown } from './report';
import { runToShellScript } from './shell-script';
import { FIXTURE_COOKIES, FIXTURE_SECRETS } from './test-helpers';
import { leaks } from '$lib/http/leak-forms';

const dir = new URL('./har/fixtures/', import.meta.url);
const load = (name: string) => readFileSync(new URL(`${name}.har.json`, dir), 'utf8');

function imported(name: string) {
	const result = harToRun(load(name), { id: name, now: new Date('2026-03-02T10:00:00Z') });
	if (!result.ok) throw new Error(result.message);
	return result;
}

const SECRETS = FIXTURE_SECRETS;
const COOKIES = FIXTURE_COOKIES;

/**
 * The callback's annotation, then each token and me.json exchange's: the outcome, and its row and cause when it
 * matched one. Where no cause
 * is given, only the row is checked: wrong-secret's error_description (the real service's wording) names
 * "unknown client", so which cause the explorer ranks first is diagnose.ts's call, not the import's.
 */
const ANNOTATIONS: Record<string, string[]> = {
	success: ['success', 'success', 'success'],
	cancel: ['cancel', 'error token-invalid-request missing-code'],
	'reused-code': ['success', 'success', 'error token-invalid-grant used'],
	'redirect-uri-mismatch': ['success', 'error token-invalid-grant redirect-mismatch'],
	'wrong-secret': ['success', 'error token-invalid-client'],
	'wrong-grant-type': ['success', 'error token-unsupported-grant-type wrong-grant-type'],
	'missing-parameter': ['success', 'error token-invalid-request missing-parameter'],
	'me-401-grant-code': ['success', 'success', 'error me-unauthorized grant-code'],
	'me-403-no-user-agent': ['success', 'success', 'error me-forbidden missing-user-agent'],
	'me-404-deleted': ['success', 'success', 'error me-not-found deletion-requested'],
	'chrome-unrelated': ['success', 'success', 'success']
};

const EXPECTED: Record<string, { steps: string[]; flags: string[] }> = {
	success: { steps: ['link 302', 'arrival 200', 'token 200', 'me 200'], flags: [] },
	cancel: { steps: ['link 302', 'arrival 200', 'token 400'], flags: ['exchange-after-cancel'] },
	'reused-code': { steps: ['link 302', 'arrival 200', 'token 200', 'token 400'], flags: ['code-reused'] },
	'redirect-uri-mismatch': { steps: ['link 302', 'arrival 200', 'token 400'], flags: ['redirect-uri-differs'] },
	'wrong-secret': { steps: ['link 302', 'arrival 200', 'token 401'], flags: [] },
	'wrong-grant-type': { steps: ['link 302', 'arrival 200', 'token 400'], flags: [] },
	'missing-parameter': { steps: ['link 302', 'arrival 200', 'token 400'], flags: ['redirect-uri-missing'] },
	'me-401-grant-code': { steps: ['link 302', 'arrival 200', 'token 200', 'me 401'], flags: ['code-sent-to-me'] },
	'me-403-no-user-agent': { steps: ['link 302', 'arrival 200', 'token 200', 'me 403'], flags: ['me-no-user-agent'] },
	'me-404-deleted': { steps: ['link 302', 'arrival 200', 'token 200', 'me 404'], flags: [] },
	'chrome-unrelated': {
		steps: ['link 302', 'arrival 302', 'token 200', 'me 200'],
		flags: ['client-secret-parameter', 'token-from-browser']
	}
};

/** The verdict each report leads with: its severity, and the row (or section) it names. */
const VERDICTS: Record<string, string> = {
	success: 'success',
	cancel: 'error token-invalid-request',
	'reused-code': 'error token-invalid-grant',
	'redirect-uri-mismatch': 'error token-invalid-grant',
	'wrong-secret': 'error token-invalid-client',
	'wrong-grant-type': 'error token-unsupported-grant-type',
	'missing-parameter': 'error token-invalid-request',
	'me-401-grant-code': 'error me-unauthorized',
	'me-403-no-user-agent': 'error me-forbidden',
	// The service as specified (a deleted account), no fault of the request; the page at the redirect URI answered 200,
	// as for a sign-in that went through, so whether it was handled stays the question (diagnose/refused-as-specified.ts).
	'me-404-deleted': 'warning section-7.3',
	'chrome-unrelated': 'error section-4.2'
};

describe('HAR fixtures', () => {
	it('has one expectation per fixture file', () => {
		const files = readdirSync(dir).map((f) => f.replace('.har.json', ''));
		expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
	});

	for (const [name, expected] of Object.entries(EXPECTED)) {
		describe(name, () => {
			it('imports to the expected exchanges', () => {
				const { run } = imported(name);
				expect(run.exchanges.map((e) => `${e.step} ${e.response?.status ?? 'none'}`)).toEqual(expected.steps);
				expect(run.link).toMatch(/^https:\/\/auth\.example\.com\/sso\/student\?/);
				expect(run.callback?.url).toMatch(/^https:\/\/shop\.example\.com\/callback\?lang=en/);
				expect(run.target).toEqual({ kind: 'custom', authUrl: 'https://auth.example.com', accountsUrl: 'https://accounts.example.com' });
			});

			it('flags what is wrong across the requests', () => {
				const ids = diagnoseRun(imported(name).run).flags.map((f) => f.id);
				expect(ids.filter((id) => expected.flags.includes(id)).sort()).toEqual([...expected.flags].sort());
				const all = new Set(Object.values(EXPECTED).flatMap((e) => e.flags));
				expect(ids.filter((id) => all.has(id) && !expected.flags.includes(id))).toEqual([]);
			});

			it('annotates each exchange against the tables', () => {
				const { run } = imported(name);
				const { annotations } = diagnoseRun(run);
				const api = run.exchanges.flatMap((e, i) => (e.step === 'token' || e.step === 'me' ? [annotations.exchanges[i]] : []));
				const described = [annotations.callback, ...api].map((a, i) => {
					const withCause = (ANNOTATIONS[name]?.[i] ?? '').split(' ').length > 2;
					return [a?.outcome, a?.rowId, withCause ? a?.causeId : undefined].filter(Boolean).join(' ');
				});
				expect(described).toEqual(ANNOTATIONS[name]);
			});

			it('leads its report with the verdict: a good flow has no false alarm, a failed one names its row', () => {
				const { run } = imported(name);
				const verdict = flowVerdict(run, diagnoseRun(run));
				expect([verdict.severity, verdict.reference?.anchor].filter(Boolean).join(' ')).toBe(VERDICTS[name]);
				const markdown = runToMarkdown(run, diagnoseRun(run), { origin: 'https://explorer.example.com' });
				expect(markdown.split('\n')[2]).toContain(verdict.what);
			});

			it('round-trips: runToHar, JSON, harToRun gives the same run and the same annotations', () => {
				const { run } = imported(name);
				const back = harToRun(JSON.stringify(runToHar(run)));
				expect(back.ok && back.run).toEqual(run);
				expect(back.ok && diagnoseRun(back.run)).toEqual(diagnoseRun(run));
			});

			it('lets no secret, token, password or cookie survive any export', () => {
				const { run } = imported(name);
				const exports = [JSON.stringify(run), JSON.stringify(runToHar(run)), runToMarkdown(run, diagnoseRun(run), { origin: 'http://localhost:3000' }), runToShellScript(run, { origin: 'http://localhost:3000' })];
				for (const text of exports) {
					for (const secret of [...SECRETS, ...COOKIES]) expect(leaks(text, secret, ['shop-client'])).toEqual([]);
				}
			});
		});
	}

	it('tells the user what it found in a browser HAR', () => {
		const { found, run } = imported('chrome-unrelated');
		expect(found).toEqual(
			expect.arrayContaining([
				'found the authorisation link',
				'found the token exchange',
				'found the me.json call',
				'the redirect back carries a code: the user authorised',
				'ignored 8 unrelated requests'
			])
		);
		expect(found.some((s) => /^redacted \d+ cookies$/.test(s))).toBe(true);
		expect(run.exchanges[0]?.request.headers.some((h) => h.name.startsWith(':'))).toBe(false);
		expect(run.callback?.receivedAt).toBe('2026-03-02T09:00:20.042Z');
	});

	it('says a cancel is a cancel', () => {
		expect(imported('cancel').found).toContain('the redirect back carries no code: the user cancelled');
	});
});
