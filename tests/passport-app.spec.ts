/**
 * The passport test app (tests/apps/passport-app) behaves against the sandbox as integrators' apps do: the naive
 * variant's 500 on a reused code and its cancel loop, the corrected variant's pages; and the HARs recorded of it
 * hold what a customer's browser export would.
 */
import type { Har } from '../src/lib/features/runs/pure/har/har-schema';
import { expect, test } from '@playwright/test';
import { readHar, recordSignIn, sanitise, sanitiseFile } from './support/record-har';
import { AUTH_HOST } from './support/walk';

const STACK_LINE = /\n\s*at .+:\d+:\d+/;

test.describe('naive passport app', () => {
	test('a good sign-in reaches /home with the sbid_number and the verifications', async ({ browser }) => {
		const run = await recordSignIn(browser, { variant: 'naive', journey: 'good' });
		expect(new URL(run.finalUrl).pathname).toBe('/home');
		expect(run.finalStatus).toBe(200);
		expect(run.finalText).toMatch(/Signed in as [A-Za-z0-9]{7}\b/);
		expect(run.finalText).toContain('student until');
		expect(run.callbackArrivals).toHaveLength(1);
		expect(new URL(run.callbackArrivals[0]!).searchParams.get('code')).toBeTruthy();
	});

	test('the same code arriving again answers 500 with a stack trace', async ({ browser }) => {
		const run = await recordSignIn(browser, { variant: 'naive', journey: 'reload' });
		expect(run.callbackArrivals).toHaveLength(2);
		expect(run.callbackArrivals[1]).toBe(run.callbackArrivals[0]);
		expect(run.finalStatus).toBe(500);
		expect(run.finalText).toContain('TokenError');
		expect(run.finalText).toMatch(STACK_LINE);
	});

	test('a cancel sends the user straight back to the authorisation page (the loop)', async ({ browser }) => {
		const run = await recordSignIn(browser, { variant: 'naive', journey: 'cancel-loop' });
		expect(run.callbackArrivals).toHaveLength(1);
		const callback = new URL(run.callbackArrivals[0]!);
		expect(callback.searchParams.has('code')).toBe(false);
		expect(callback.searchParams.has('error')).toBe(false);
		expect(run.linkArrivals).toHaveLength(2);
		expect(new URL(run.finalUrl).origin).toBe(AUTH_HOST);
	});

	test('a user who asked for account deletion (me.json 404) gets a 500', async ({ browser }) => {
		const run = await recordSignIn(browser, { variant: 'naive', journey: 'good', login: 'deleted@example.com' });
		expect(run.finalStatus).toBe(500);
		expect(run.finalText).toMatch(STACK_LINE);
	});

	test('redirectNext: the exchange sends the plain callback URL, the service refuses it, a 500', async ({ browser }) => {
		const run = await recordSignIn(browser, { variant: 'naive', journey: 'redirect-next' });
		expect(new URL(run.linkArrivals[0]!).searchParams.get('redirect_uri')).toMatch(/\/auth\/callback\?next=%2Fhome$/);
		expect(new URL(run.callbackArrivals[0]!).searchParams.get('next')).toBe('/home');
		expect(run.finalStatus).toBe(500);
		expect(run.finalText).toMatch(STACK_LINE);
	});

	test('state: the answer carries no state, passport refuses it and signs in again (a loop)', async ({ browser }) => {
		const run = await recordSignIn(browser, { variant: 'naive', journey: 'state' });
		expect(new URL(run.linkArrivals[0]!).searchParams.get('state')).toBeTruthy();
		expect(new URL(run.callbackArrivals[0]!).searchParams.has('state')).toBe(false);
		expect(run.linkArrivals).toHaveLength(2);
		expect(new URL(run.finalUrl).origin).toBe(AUTH_HOST);
	});
});

test.describe('corrected passport app', () => {
	test('a cancel answers a 200 "Sign-in cancelled" page with a way to try again, no loop', async ({ browser }) => {
		const run = await recordSignIn(browser, { variant: 'corrected', journey: 'cancel-loop' });
		expect(run.finalStatus).toBe(200);
		expect(run.finalText).toContain('Sign-in cancelled');
		expect(run.finalText).toContain('Try again');
		expect(run.linkArrivals).toHaveLength(1);
		expect(new URL(run.finalUrl).origin).toBe(run.appUrl);
	});

	test('the same code arriving again answers a friendly 4xx, no stack trace', async ({ browser }) => {
		const run = await recordSignIn(browser, { variant: 'corrected', journey: 'reload' });
		expect(run.callbackArrivals).toHaveLength(2);
		expect(run.finalStatus).toBeGreaterThanOrEqual(400);
		expect(run.finalStatus).toBeLessThan(500);
		expect(run.finalText).toContain('already been used or expired');
		expect(run.finalText).not.toMatch(STACK_LINE);
	});

	test('a user who asked for account deletion (me.json 404) gets a clear page, no stack trace', async ({ browser }) => {
		const run = await recordSignIn(browser, { variant: 'corrected', journey: 'good', login: 'deleted@example.com' });
		expect(run.finalStatus).toBe(403);
		expect(run.finalText).toContain('asked to be deleted');
		expect(run.finalText).not.toMatch(STACK_LINE);
	});

	test('reads verifications keyed `group`', async ({ browser }) => {
		const run = await recordSignIn(browser, { variant: 'corrected', journey: 'good', verificationKey: 'group' });
		expect(new URL(run.finalUrl).pathname).toBe('/home');
		expect(run.finalText).toContain('student until');
	});

	test('redirectNext: the exchange sends the link\'s own redirect URI and lands on next', async ({ browser }) => {
		const run = await recordSignIn(browser, { variant: 'corrected', journey: 'redirect-next' });
		expect(run.finalStatus).toBe(200);
		expect(new URL(run.finalUrl).pathname).toBe('/home');
	});

	test('state: a clear 403 page instead of a loop', async ({ browser }) => {
		const run = await recordSignIn(browser, { variant: 'corrected', journey: 'state' });
		expect(run.finalStatus).toBe(403);
		expect(run.linkArrivals).toHaveLength(1);
		expect(run.finalText).not.toMatch(STACK_LINE);
	});
});

test('the recorded HAR holds the link, the callback arrivals and response bodies; the sanitised copy no cookies or authorization', async ({ browser }, testInfo) => {
	const run = await recordSignIn(browser, { variant: 'naive', journey: 'reload', harPath: testInfo.outputPath('reload.har') });
	const har = await readHar(run.harPath);
	const urls = har.log.entries.map((e) => e.request.url);
	expect(urls).toContain(run.linkArrivals[0]);
	expect(urls.filter((u) => u === run.callbackArrivals[0])).toHaveLength(2);
	const home = har.log.entries.find((e) => new URL(e.request.url).pathname === '/home');
	expect(home?.response.content.text).toMatch(/Signed in as/);
	const failure = har.log.entries.find((e) => e.response.status === 500);
	expect(failure?.response.content.text).toContain('TokenError');

	const hasSensitive = (h: Har) =>
		h.log.entries.some(
			(e) =>
				[e.request, e.response].some((m) => m.cookies.length > 0 || m.headers.some((x) => /^(cookie|set-cookie|authorization)$/i.test(x.name)))
		);
	expect(hasSensitive(har)).toBe(true);
	const sanitisedPath = await sanitiseFile(run.harPath);
	const sanitised = await readHar(sanitisedPath);
	expect(hasSensitive(sanitised)).toBe(false);
	expect(sanitised).toEqual(sanitise(har));
	expect(sanitised.log.entries).toHaveLength(har.log.entries.length);
});
