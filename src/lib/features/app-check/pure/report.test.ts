import { describe, expect, it } from 'vitest';
import { MASK } from '$lib/http/exchange';
import { oneLine } from '$lib/markdown';
import { HOSTILE_VALUES, renderMarkdown, textOf, unsafeMarkup } from '$lib/markdown-testing';
import type { AppCheckEvidence } from './evidence';
import type { AppCheckResult } from './judge';
import { appCheckSummary, describeServer, describeUser, formatAppCheckMarkdown, formatAppCheckTable, formatJUnit } from './report';

const KEY = 'ws1.c2VjcmV0LWtleS12YWx1ZQ';

function evidence(status: number, extra: Partial<AppCheckEvidence['user']> = {}): AppCheckEvidence {
	return {
		user: {
			callbackUrl: `http://localhost:4000/auth/callback?code=${MASK}`,
			hops: [{ url: `http://localhost:4000/auth/callback?code=${MASK}`, status, where: 'app' }],
			final: { url: `http://localhost:4000/auth/callback?code=${MASK}`, status, title: 'Error', excerpt: 'TokenError: The grant code was used' },
			backToSignIn: false,
			stackTrace: [],
			blocked: [],
			fingerprint: '',
			template: '',
			...extra
		},
		server: { exchanges: [{ status: 200, error: null }, { status: 400, error: 'invalid_grant' }], meCalls: [200], meShown: ['STU0001', 'student'], signInVisits: 1 },
		rule: null
	};
}

const pass: AppCheckResult = { id: 'success', title: 'Success', verdict: 'pass', reason: 'As a client should: exchange the code.', findings: [], fix: null, row: null, clientId: 'shop', evidence: evidence(200) };
const fail: AppCheckResult = {
	id: 'code-reused',
	title: 'Callback reloaded (code reused)',
	verdict: 'fail',
	reason: 'The user got a 500 server error <&>.',
	findings: ['the user got a 500 server error'],
	fix: 'Handle invalid_grant.',
	row: null,
	clientId: 'shop',
	evidence: evidence(500, { stackTrace: ['at OAuth2Strategy.parseErrorResponse (/app/strategy.js:373:12)'] })
};
const notRun: AppCheckResult = { id: 'me-404', title: 'me.json 404', verdict: 'not-run', reason: `The sandbox refused the key ${KEY}.`, findings: [], fix: null, row: null, clientId: 'shop', evidence: null };
const info = { startUrl: 'http://localhost:4000/login', clientId: 'shop', startedAt: '2026-11-24T02:00:00.000Z', durationMs: 4200 };

describe('the app check\'s reports', () => {
	it('says what the server did and what the user got in a few words', () => {
		expect(describeServer(fail.evidence)).toBe('exchanged 200, 400 invalid_grant; me.json 200');
		expect(describeUser(fail.evidence)).toBe('500 /auth/callback, stack trace');
		expect(describeUser({ ...evidence(200), user: { ...evidence(200).user, backToSignIn: true } })).toBe('200 /auth/callback, back at sign-in');
		expect(appCheckSummary([pass, fail, notRun])).toBe('1 passed, 1 failed, 1 not run');
	});

	it('prints a table row per check, then why each failed, with its fix, hiding known secrets', () => {
		const lines = formatAppCheckTable([pass, fail, notRun], [KEY]).split('\n');
		expect(lines[0]).toMatch(/^check\s+\| app server \(seen by the sandbox\)\s+\| user got\s+\| result$/);
		expect(lines.slice(2, 5).map((l) => l.split(' | ').at(-1)?.trim())).toEqual(['pass', 'FAIL', 'not run']);
		expect(lines).toContain('FAIL code-reused: The user got a 500 server error <&>.');
		expect(lines).toContain('  fix: Handle invalid_grant.');
		expect(lines.join('\n')).not.toContain(KEY);
	});

	it('writes JUnit XML a CI server reads: a testcase per check, failures and errors with the evidence', () => {
		const junit = formatJUnit([pass, fail, notRun], info, [KEY]);
		expect(junit).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="app-check" tests="3" failures="1" errors="1" time="4.200">/);
		expect(junit).toContain('<testcase classname="app-check" name="code-reused: Callback reloaded (code reused)">');
		expect(junit).toContain('<failure message="The user got a 500 server error &lt;&amp;&gt;." type="AppCheckFailure">');
		expect(junit).toContain('stack: at OAuth2Strategy.parseErrorResponse (/app/strategy.js:373:12)');
		expect(junit).toContain('<error message="The sandbox refused the key ••••••." type="AppCheckNotRun">');
		expect(junit).not.toContain(KEY);
		expect(junit.match(/<testcase /g)).toHaveLength(3);
	});

	it('writes a Markdown report with the table and each check\'s evidence', () => {
		const markdown = formatAppCheckMarkdown([pass, fail], info);
		expect(markdown).toContain('**1 passed, 1 failed, 0 not run** of 2 checks.');
		expect(markdown).toContain('| Callback reloaded (code reused) | exchanged 200, 400 invalid_grant; me.json 200 | 500 /auth/callback, stack trace | FAIL |');
		expect(markdown).toContain('### Callback reloaded (code reused) (`code-reused`): FAIL');
		expect(markdown).toContain(`- Callback: \`http://localhost:4000/auth/callback?code=${MASK}\``);
		expect(markdown).toContain('```\nat OAuth2Strategy.parseErrorResponse (/app/strategy.js:373:12)\n```');
		expect(markdown).toContain('*Fix:* Handle invalid_grant.');
		// Each check says what it requires to pass.
		expect(markdown).toContain("*To pass, it requires:*\n\n- the code exchanged at /oauth/token\n- a page of the app's own: never a 5xx, never a framework's default error page, no stack trace\n");
	});

	it("names the engine's row of a failure beside its fix in every output, as the live page names it", () => {
		const rowed: AppCheckResult = { ...fail, row: { kind: 'row', table: '7.2', rowId: 'token-invalid-grant', anchor: 'token-invalid-grant' } };
		expect(formatAppCheckTable([rowed]).split('\n')).toContain('  row: 7.2 token-invalid-grant');
		expect(formatJUnit([rowed], info)).toMatch(/^row: 7\.2 token-invalid-grant$/m);
		expect(formatAppCheckMarkdown([rowed], info)).toContain('*Row:* 7.2 `token-invalid-grant`');
	});

	it('hides a secret the app printed under a name of its own, in every output, without knowing its value', () => {
		const SECRET = 'Hunter2-s3cr3t';
		const printed = [`{"clientSecret":"${SECRET}"}`, `OAUTH_CLIENT_SECRET=${SECRET}`, `client-secret: ${SECRET}`, `the secret is ${SECRET}.`];
		const results = printed.map((text): AppCheckResult => ({
			...fail,
			reason: `The page says ${text}`,
			evidence: evidence(500, { final: { url: 'http://localhost:4000/cb', status: 500, title: text, excerpt: text }, stackTrace: [text] })
		}));
		for (const output of [formatAppCheckTable(results), formatJUnit(results, info), formatAppCheckMarkdown(results, info)]) {
			expect(output).not.toContain(SECRET);
			expect(output).toContain('OAUTH_CLIENT_SECRET=••••••');
		}
	});

	it('hides every value it knows in every encoding the app may print it in', () => {
		const secret = 'p&ss+w/rd=1 é';
		const forms = [encodeURIComponent(secret), 'p&amp;ss+w/rd=1 &eacute;', JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/'), Buffer.from(secret).toString('base64')];
		const result: AppCheckResult = { ...fail, reason: `Echoed: ${forms.join(' | ')}` };
		for (const output of [formatAppCheckTable([result], [secret]), formatJUnit([result], info, [secret]), formatAppCheckMarkdown([result], info, [secret])]) {
			for (const form of forms) expect(output).not.toContain(form);
		}
	});
});

describe("the app check's Markdown report with hostile evidence", () => {
	it.each(HOSTILE_VALUES)('%j in page titles and text, URLs, stack traces, the start URL and the client id adds no markup', (value) => {
		const hostile: AppCheckResult = {
			...fail,
			reason: `The user got a 500 server error: ${value}`,
			evidence: evidence(500, {
				callbackUrl: `http://localhost:4000/auth/callback?${value}`,
				hops: [{ url: `http://localhost:4000/${value}`, status: 500, where: 'app' }],
				final: { url: `http://localhost:4000/${value}`, status: 500, title: value, excerpt: value },
				stackTrace: [value, `at ${value}`],
				blocked: [`http://${value}/`]
			})
		};
		const html = renderMarkdown(formatAppCheckMarkdown([hostile, pass], { ...info, startUrl: `http://localhost:4000/${value}`, clientId: value }));
		expect(unsafeMarkup(html)).toEqual([]);
		expect(textOf(html)).toContain(`The user ended on: 500 http://localhost:4000/${oneLine(value)}, "${oneLine(value).trim()}"`);
		expect(html.match(/<tr>/g)).toHaveLength(3);
	});

	it('hides a known secret that Markdown escaping would otherwise write differently', () => {
		const secret = '*s3cr3t_~value*';
		const leaky: AppCheckResult = { ...fail, evidence: evidence(500, { final: { url: 'http://localhost:4000/', status: 500, title: secret, excerpt: `key=${secret}` } }) };
		const markdown = formatAppCheckMarkdown([leaky], info, [secret]);
		expect(textOf(renderMarkdown(markdown))).not.toContain('s3cr3t');
		expect(markdown).not.toContain('s3cr3t');
	});
});
