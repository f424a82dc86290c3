/**
 * The app check's results as a terminal table, JUnit XML for CI and a Markdown report with the evidence. The
 * evidence is redacted when it is gathered; every output is redacted once more as a last guard.
 */
import { mdCode, mdFence, mdProse, mdText } from '$lib/markdown';
import { textTable } from '../../scenarios/pure';
import { findAppCheck, requirements } from './checks';
import { redact, type AppCheckEvidence } from './evidence';
import type { RowReference } from './engine';
import type { AppCheckResult, AppCheckVerdict } from './judge';

export interface AppCheckRunInfo {
	startUrl: string;
	clientId: string | null;
	/** ISO time the run started. */
	startedAt: string;
	durationMs: number;
}

const WORD: Record<AppCheckVerdict, string> = { pass: 'pass', fail: 'FAIL', 'not-run': 'not run' };

export function verdictLabel(verdict: AppCheckVerdict): string {
	return WORD[verdict];
}

/** `N passed, M failed, K not run` */
export function appCheckSummary(results: readonly Pick<AppCheckResult, 'verdict'>[]): string {
	const count = (v: AppCheckVerdict) => results.filter((r) => r.verdict === v).length;
	return `${count('pass')} passed, ${count('fail')} failed, ${count('not-run')} not run`;
}

/** What the app's server did, in a few words: `exchanged 200; me.json 200`. */
export function describeServer(evidence: AppCheckEvidence | null): string {
	if (!evidence) return '—';
	const { exchanges, meCalls, signInVisits } = evidence.server;
	const parts = [
		exchanges.length === 0 ? 'no exchange' : `exchanged ${exchanges.map((e) => `${e.status ?? '—'}${e.error ? ` ${e.error}` : ''}`).join(', ')}`,
		meCalls.length === 0 ? 'no me.json' : `me.json ${meCalls.map((s) => s ?? '—').join(', ')}`,
		...(signInVisits > 1 ? [`back to the link ×${signInVisits - 1}`] : [])
	];
	return parts.join('; ');
}

/** The engine's row of the tables, as the reference names it: `7.2 token-invalid-grant`. */
const rowWords = (row: RowReference) => `${row.table} ${row.rowId}`;

/** What the user got, in a few words: `200 /profile`, `500, stack trace`, `loop`. */
export function describeUser(evidence: AppCheckEvidence | null): string {
	const final = evidence?.user.final;
	if (!evidence || !final) return '—';
	const path = final.url.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/[?#].*$/, '') || '/';
	const parts = [`${final.status ?? '—'} ${path}`];
	if (evidence.user.backToSignIn) parts.push('back at sign-in');
	if (evidence.user.stackTrace.length > 0) parts.push('stack trace');
	return parts.join(', ');
}

/** The table, then why each check failed or did not run, with its fix. */
export function formatAppCheckTable(results: readonly AppCheckResult[], known: readonly string[] = []): string {
	const header = ['check', 'app server (seen by the sandbox)', 'user got', 'result'];
	const rows = results.map((r) => [r.id, describeServer(r.evidence), describeUser(r.evidence), verdictLabel(r.verdict)]);
	const notes = results
		.filter((r) => r.verdict !== 'pass')
		.flatMap((r) => [`${verdictLabel(r.verdict)} ${r.id}: ${r.reason}`, ...(r.row ? [`  row: ${rowWords(r.row)}`] : []), ...(r.fix ? [`  fix: ${r.fix}`] : [])]);
	return redact([...textTable(header, rows), ...(notes.length ? ['', ...notes] : [])].join('\n'), known);
}

function xml(text: string): string {
	return text
		.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;');
}

function evidenceLines(result: AppCheckResult): string[] {
	const e = result.evidence;
	if (!e) return [];
	return [
		`app server: ${describeServer(e)}`,
		`user got: ${describeUser(e)}`,
		...(e.user.callbackUrl ? [`callback: ${e.user.callbackUrl}`] : []),
		...e.user.hops.map((hop) => `page: ${hop.status ?? '—'} ${hop.url} (${hop.where})`),
		...e.user.stackTrace.map((l) => `stack: ${l}`),
		...e.user.blocked.map((b) => `blocked: ${b}`),
		...(e.rule ? [`sandbox rule ${e.rule.outcome}: ${e.rule.used === null ? 'unknown' : e.rule.used ? 'applied' : 'not applied'}`] : []),
		...(e.server.diagnosis ? [`diagnosis: ${e.server.diagnosis.what} ${e.server.diagnosis.cause}`] : []),
		...(result.row ? [`row: ${rowWords(result.row)}`] : [])
	];
}

/** JUnit XML: one testsuite, a testcase per check; a failure's message is its reason, its body the evidence and the fix. */
export function formatJUnit(results: readonly AppCheckResult[], info: AppCheckRunInfo, known: readonly string[] = []): string {
	const failures = results.filter((r) => r.verdict === 'fail').length;
	const errors = results.filter((r) => r.verdict === 'not-run').length;
	const cases = results.map((r) => {
		const body = [...evidenceLines(r), ...(r.fix ? [`fix: ${r.fix}`] : [])].join('\n');
		const open = `    <testcase classname="app-check" name="${xml(r.id)}: ${xml(r.title)}">`;
		const system = body ? `\n      <system-out>${xml(body)}</system-out>` : '';
		if (r.verdict === 'pass') return `${open}${system}\n    </testcase>`;
		const tag = r.verdict === 'fail' ? 'failure' : 'error';
		return `${open}\n      <${tag} message="${xml(r.reason)}" type="${r.verdict === 'fail' ? 'AppCheckFailure' : 'AppCheckNotRun'}">${xml(body)}</${tag}>${system}\n    </testcase>`;
	});
	const seconds = (info.durationMs / 1000).toFixed(3);
	const suite = [
		'<?xml version="1.0" encoding="UTF-8"?>',
		`<testsuites name="app-check" tests="${results.length}" failures="${failures}" errors="${errors}" time="${seconds}">`,
		`  <testsuite name="app-check ${xml(info.startUrl)}" tests="${results.length}" failures="${failures}" errors="${errors}" skipped="0" time="${seconds}" timestamp="${xml(info.startedAt)}">`,
		...cases,
		'  </testsuite>',
		'</testsuites>',
		''
	].join('\n');
	return redact(suite, known);
}

/** `value` with every string in it redacted. */
function redactStrings<T>(value: T, known: readonly string[]): T {
	return JSON.parse(JSON.stringify(value), (_key, v: unknown) => (typeof v === 'string' ? redact(v, known) : v)) as T;
}

/** The Markdown report: what was checked, the table, then each check's evidence, reason and fix. */
export function formatAppCheckMarkdown(results: readonly AppCheckResult[], info: AppCheckRunInfo, known: readonly string[] = []): string {
	// The last guard runs before escaping as well as after: an escaped secret (`\_`, `&lt;`) is not the text it looks for.
	({ results, info } = redactStrings({ results, info }, known));
	const sections = results.map((r) => {
		const check = findAppCheck(r.id);
		const e = r.evidence;
		const lines = [
			`### ${mdText(r.title)} (${mdCode(r.id)}): ${verdictLabel(r.verdict)}`,
			'',
			...(check
				? [`*How:* ${mdProse(check.how)}`, '', `*A client should:* ${mdProse(check.should)}`, '', '*To pass, it requires:*', '', ...requirements(check).map((rule) => `- ${mdProse(rule)}`), '']
				: []),
			`*Verdict:* ${mdProse(r.reason)}`,
			...(r.row ? ['', `*Row:* ${mdText(r.row.table)} ${mdCode(r.row.rowId)}`] : []),
			...(r.fix ? ['', `*Fix:* ${mdProse(r.fix)}`] : []),
			''
		];
		if (e) {
			lines.push(
				'*Evidence*',
				'',
				`- The app's server, seen by the sandbox: ${mdText(describeServer(e))}${e.server.meTiedByTime ? ' (me.json calls tied to the client by time: they carried no token)' : ''}.`,
				...(e.rule ? [`- Sandbox rule ${mdCode(e.rule.outcome)}: ${e.rule.used === null ? 'the sandbox could not say whether it was applied' : e.rule.used ? 'applied' : 'not applied'}.`] : []),
				...(e.user.callbackUrl ? [`- Callback: ${mdCode(e.user.callbackUrl)}`] : []),
				...e.user.hops.map((hop) => `- Page: ${mdText(String(hop.status ?? '—'))} ${mdCode(hop.url)} (${hop.where === 'sandbox' ? "the sandbox's sign-in" : mdText(hop.where)})`),
				...(e.user.final
					? [`- The user ended on: ${mdText(String(e.user.final.status ?? '—'))} ${mdCode(e.user.final.url)}${e.user.final.title ? `, "${mdText(e.user.final.title)}"` : ''}`]
					: []),
				...(e.user.final?.excerpt ? [`- Page text: "${mdText(e.user.final.excerpt)}"`] : []),
				...(e.user.backToSignIn ? ['- The browser arrived at the sandbox\'s sign-in link again after the redirect.'] : []),
				...e.user.blocked.map((b) => `- Blocked (not an allowed origin): ${mdCode(b)}`),
				...(e.user.stackTrace.length ? ['', mdFence(e.user.stackTrace.join('\n'))] : []),
				''
			);
		}
		return lines.join('\n');
	});
	const rows = results.map((r) => `| ${mdText(r.title)} | ${mdText(describeServer(r.evidence))} | ${mdText(describeUser(r.evidence))} | ${verdictLabel(r.verdict)} |`);
	const text = [
		'# App check',
		'',
		`Start URL: ${mdCode(info.startUrl)}${info.clientId ? `; client ${mdCode(info.clientId)}` : ''}; run ${mdText(info.startedAt)} (${(info.durationMs / 1000).toFixed(1)} s).`,
		'',
		`**${appCheckSummary(results)}** of ${results.length} check${results.length === 1 ? '' : 's'}.`,
		'',
		'| Check | App server (seen by the sandbox) | User got | Result |',
		'|---|---|---|---|',
		...rows,
		'',
		'## Checks',
		'',
		...sections
	].join('\n');
	return redact(text, known);
}
