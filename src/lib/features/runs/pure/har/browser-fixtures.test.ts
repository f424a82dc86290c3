/**
 * Browser HARs of an integrator's app (passport-oauth2 as integrators write it), each journey also exported
 * sanitised (no Cookie, Set-Cookie or Authorization): the flow as the browser alone saw it, diagnosed from the app's
 * callback page's answers. Made by hand in the shape Chrome saves (fixtures-browser/).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { leaks } from '$lib/http/leak-forms';
import { annotateFlow } from '$lib/flow/annotate-flow';
import { exchange, flow } from '$lib/flow/test-helpers';
import { diagnoseRun } from '../diagnose-run';
import { joinEvidence } from '../join';
import { harStreamToRun, harToRun, runToHar } from './har';
import { runToMarkdown } from '../report';
import { describeSanitised, SanitisedCheck } from './sanitised';
import { FIXTURE_COOKIES, FIXTURE_SECRETS } from '../test-helpers';
import type { HarEntry } from './har-schema';

const dir = new URL('./fixtures-browser/', import.meta.url);
const load = (name: string) => readFileSync(new URL(`${name}.har.json`, dir), 'utf8');
const OPTIONS = { id: 'browser', now: new Date('2026-03-02T10:00:00Z') };

/** The text in pieces, as an upload arrives. */
async function* pieces(text: string, size = 4096): AsyncGenerator<string> {
	for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

function imported(name: string) {
	const result = harToRun(load(name), OPTIONS);
	if (!result.ok) throw new Error(result.message);
	return result;
}

/** Each journey's flags in order (errors first), and what the callback's annotation says. */
const EXPECTED: Record<string, { flags: string[]; callback: string; first?: { causeId?: string; text: RegExp } }> = {
	good: { flags: [], callback: 'success' },
	reload: { flags: ['callback-failed', 'code-arrived-again'], callback: 'error', first: { causeId: 'used', text: /answered 500/ } },
	'redirect-next': { flags: ['callback-failed'], callback: 'error', first: { causeId: 'redirect-mismatch', text: /naming `invalid_grant`/ } },
	'cancel-loop': { flags: ['cancel-loop'], callback: 'cancel', first: { text: /the callback route treats a redirect without `code` as "not signed in yet"/ } },
	state: { flags: ['callback-failed', 'state-parameter'], callback: 'error', first: { text: /Unable to verify authorization request state/ } }
};

describe('browser HARs of an integrator\'s app', () => {
	it('has one expectation per journey, each also sanitised', () => {
		const files = readdirSync(dir).map((f) => f.replace('.har.json', ''));
		expect(files.sort()).toEqual(Object.keys(EXPECTED).flatMap((name) => [name, `${name}-sanitised`]).sort());
	});

	for (const [journey, expected] of Object.entries(EXPECTED)) {
		for (const name of [journey, `${journey}-sanitised`]) {
			describe(name, () => {
				it('flags what the browser\'s side shows, most likely cause first', () => {
					const { run } = imported(name);
					const { flags, annotations } = diagnoseRun(run);
					expect(flags.map((f) => f.id)).toEqual(expected.flags);
					expect(annotations.callback?.outcome).toBe(expected.callback);
					if (expected.first) {
						expect(flags[0]?.message).toMatch(expected.first.text);
						if (expected.first.causeId) expect(flags[0]?.candidates?.[0]).toMatchObject({ causeId: expected.first.causeId, likelihood: 'likely' });
					}
				});

				it('knows whether the export was sanitised, and says so in the report', () => {
					const { run, found } = imported(name);
					const sanitised = name.endsWith('-sanitised');
					expect(run.sanitised).toEqual(sanitised ? { hidden: ['Cookie', 'Set-Cookie', 'Authorization'] } : undefined);
					expect(found.some((f) => f.startsWith('the HAR was exported sanitised'))).toBe(sanitised);
					const report = runToMarkdown(run, diagnoseRun(run), { origin: 'http://localhost:3000' });
					expect(report.includes('Sanitised HAR: This HAR was exported sanitised')).toBe(sanitised);
				});

				it('reads the same streamed, and round-trips through its HAR export', async () => {
					const { run } = imported(name);
					const streamed = await harStreamToRun(pieces(load(name)), OPTIONS);
					expect(streamed.ok && streamed.run).toEqual(run);
					const back = harToRun(JSON.stringify(runToHar(run)));
					expect(back.ok && back.run).toEqual(run);
					expect(back.ok && diagnoseRun(back.run)).toEqual(diagnoseRun(run));
				});

				it('keeps no cookie value, password or secret', () => {
					const { run } = imported(name);
					const texts = [JSON.stringify(run), JSON.stringify(runToHar(run)), runToMarkdown(run, diagnoseRun(run), { origin: 'http://localhost:3000' })];
					for (const text of texts) for (const secret of [...FIXTURE_SECRETS, ...FIXTURE_COOKIES]) expect(leaks(text, secret, ['shop-client'])).toEqual([]);
				});
			});
		}
	}
});

describe('the sanitised-export rule', () => {
	const har = (name: string) => JSON.parse(load(name)).log.entries as HarEntry[];
	const check = (entries: HarEntry[]) => {
		const c = new SanitisedCheck();
		for (const e of entries) c.observe(e);
		return c.result();
	};

	it('needs the browser on the authorisation host beyond the link: a HAR of the link alone says nothing', () => {
		const entries = har('good-sanitised');
		expect(check(entries)).toBeDefined();
		const withoutSignIn = entries.filter((e) => !e.request.url.startsWith('https://auth.example.com/sso/student/flow'));
		expect(check(withoutSignIn)).toBeUndefined();
	});

	it('is not sanitised as soon as one header or cookie list of the file shows a credential', () => {
		const entries = har('good-sanitised');
		const last = entries.at(-1)!;
		const withCookie = { ...last, request: { ...last.request, cookies: [{ name: 'a', value: 'b' }] } };
		expect(check([...entries.slice(0, -1), withCookie])).toBeUndefined();
		const withAuthorization = { ...last, request: { ...last.request, headers: [{ name: 'authorization', value: 'Bearer x' }] } };
		expect(check([...entries.slice(0, -1), withAuthorization])).toBeUndefined();
	});

	it('says what a sanitised export hides', () => {
		const text = describeSanitised({ hidden: ['Cookie', 'Set-Cookie', 'Authorization'] });
		expect(text).toContain('no `Cookie`, `Set-Cookie` or `Authorization` header anywhere');
		expect(text).toMatch(/unknown, not missing/);
	});

	it('reads a me.json without Authorization in a sanitised HAR as unknown, not "no token sent"', () => {
		const me = exchange('me', { url: 'https://accounts.example.com/api/v3/me.json', headers: { 'User-Agent': 'a' } }, { status: 401 });
		const record = flow({ exchanges: [me] });
		expect(annotateFlow(record).exchanges[0]).toMatchObject({ causeId: 'missing-token' });
		const unknown = annotateFlow(flow({ exchanges: [{ ...me, strippedHeaders: ['Authorization'] }] })).exchanges[0];
		expect(unknown?.causeId).toBeUndefined();
		expect(unknown?.candidates[0]).toMatchObject({ causeId: 'missing-token', likelihood: 'possible' });
		expect(unknown?.candidates[0]?.why).toMatch(/sanitised/);
	});

	/** A HAR of `entries` and a me.json call without `Authorization` that me.json refused. */
	const withMe = (entries: HarEntry[]) => {
		const me: HarEntry = {
			...entries.at(-1)!,
			startedDateTime: '2026-03-02T09:00:23.000Z',
			request: { ...entries.at(-1)!.request, url: 'https://accounts.example.com/api/v3/me.json', headers: [{ name: 'User-Agent', value: 'shop' }], cookies: [], queryString: [] },
			response: { ...entries.at(-1)!.response, status: 401, statusText: 'Unauthorized', headers: [], cookies: [], content: { size: 0, mimeType: 'text/plain', text: '' } }
		};
		return JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: [...entries, me] } });
	};
	const meOf = (r: Parameters<typeof diagnoseRun>[0]) => diagnoseRun(r).annotations.exchanges[r.exchanges.findIndex((e) => e.step === 'me')];
	const importedText = (text: string) => {
		const result = harToRun(text, OPTIONS);
		if (!result.ok) throw new Error(result.message);
		return result.run;
	};

	it("keeps a sanitised HAR's own mark when it is added to a run as evidence: its me.json's token is unknown", () => {
		const evidence = importedText(withMe(har('good-sanitised')));
		expect(meOf(evidence)?.causeId).toBeUndefined();
		const walk = importedText(load('good'));
		const joined = joinEvidence(walk, { source: 'har', timed: true, record: evidence, redactions: [], sanitised: evidence.sanitised! }).run;
		expect(joined.sanitised).toEqual(evidence.sanitised);
		expect(meOf(joined)?.causeId).toBeUndefined();
		expect(meOf(joined)?.candidates[0]).toMatchObject({ causeId: 'missing-token', likelihood: 'possible' });
	});

	it("reads a server-side HAR's me.json without a token as missing, though the run it joins was sanitised", () => {
		const sanitisedRun = importedText(load('good-sanitised'));
		expect(sanitisedRun.sanitised).toBeDefined();
		const server = importedText(withMe(har('good')));
		expect(server.sanitised).toBeUndefined();
		const joined = joinEvidence(sanitisedRun, { source: 'har', timed: true, record: server, redactions: [] }).run;
		expect(meOf(joined)?.causeId).toBe('missing-token');
		const back = harToRun(JSON.stringify(runToHar(joined)), OPTIONS);
		expect(back.ok && meOf(back.run)?.causeId).toBe('missing-token');
	});

	it('reads an export made before exchanges carried their own mark as sanitised throughout', () => {
		const exported = runToHar(importedText(withMe(har('good-sanitised'))));
		for (const entry of exported.log.entries) delete (entry._ssoFlowExplorer as { exchange?: { strippedHeaders?: string[] } } | undefined)?.exchange?.strippedHeaders;
		const back = importedText(JSON.stringify(exported));
		expect(back.exchanges.every((e) => e.strippedHeaders?.includes('Authorization'))).toBe(true);
		expect(meOf(back)?.causeId).toBeUndefined();
	});
});
