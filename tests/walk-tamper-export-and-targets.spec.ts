/**
 * What a first-time user does after the first walk, each tried at a laptop's width and a phone's. A link pasted
 * from a customer's app is checked; a change of client keeps the code for a tamper; the exports work outside the explorer (the shell script runs end to end against the sandbox); the diagnosis says
 * each thing once; the runs list says how each walk ended; the target form says which custom targets are allowed.
 */
import { expect, test } from '@playwright/test';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AUTH_HOST, DEMO_SECRET, EXPLORER, annotationOf, authorise, callMe, exchange, open, signInAndDecide, tamper } from './support/walk';
import { VIEWPORTS, seriousViolations } from './support/viewports';

const run = promisify(execFile);

/** The second client the sandbox ships (src/lib/sandbox/fixtures.ts). */
const OTHER_CLIENT = { id: 'group-key-client', secret: 'group-secret-change-me' };

for (const viewport of VIEWPORTS) {
	test.describe(`at ${viewport.width}×${viewport.height} (${viewport.name})`, () => {
		test.use({ viewport: { width: viewport.width, height: viewport.height } });

		test('4. a pasted link is checked by the walk’s linter, by URL, naming where the secret is without showing it', async ({ page }) => {
			const link =
				`${AUTH_HOST}/sso/students?response_type=code&client_id=demo-client&redirect_uri=https://app.example/cb?next=/home` +
				`&country=uk&debug=${DEMO_SECRET}`;
			await open(page, '/check');
			await page.getByLabel('Authorisation link').fill(link);
			await page.getByRole('button', { name: 'Check the link' }).click();
			await page.waitForURL(/\/check#link=/);
			const result = page.getByTestId('check-result');
			await expect(result.getByTestId('finding-unknown-supergroup')).toBeVisible();
			await expect(result.getByTestId('finding-redirect-uri-not-encoded')).toBeVisible();
			await expect(result.getByTestId('finding-client-secret-value-0')).toContainText("The value of the demo client's secret (demo-client) appears in the debug parameter.");
			await expect(result.getByRole('alert')).toContainText('Do not share the address of this page');
			// Named, never quoted by a finding.
			expect(await result.innerText()).not.toContain(DEMO_SECRET);
			expect(await seriousViolations(page)).toEqual([]);

			// The address alone reproduces a check, for a link without a secret, and offers itself for sharing.
			const clean = `${AUTH_HOST}/sso/student?response_type=code&client_id=demo-client&redirect_uri=${encodeURIComponent(`${EXPLORER}/callback`)}&country=uk`;
			const fragment = `#${new URLSearchParams({ link: clean })}`;
			await open(page, `/check${fragment}`);
			await expect(page.getByTestId('check-result')).toContainText('No findings');
			await expect(page.getByTestId('check-permalink')).toHaveAttribute('href', `/check${fragment}`);
		});

		test('5. a change of client keeps the code, says so, and the exchange can be sent with the new client as a tamper', async ({ page }) => {
			await authorise(page);
			await page.getByLabel('Client ID').fill(OTHER_CLIENT.id);
			await page.getByLabel('Client secret').fill(OTHER_CLIENT.secret);
			await expect(page.getByTestId('save-effect')).toContainText(`keeps the code received`);
			await expect(page.getByTestId('save-effect')).toContainText(`${OTHER_CLIENT.id}'s credentials, as a tamper`);
			await page.getByRole('button', { name: 'Save client settings' }).click();

			const notice = page.getByTestId('other-client');
			await expect(notice).toContainText('issued to demo-client');
			await expect(page.getByTestId('callback-result')).toHaveAttribute('data-kind', 'code');
			await notice.getByTestId('exchange-other-client').click();
			const annotation = annotationOf(page, 'token', 0);
			await expect(annotation).toHaveAttribute('data-row', 'token-invalid-grant');
			await expect(annotation).toContainText('issued to a different client ID');
			await expect(page.getByTestId('exchange-token')).toContainText('code issued to another client');
		});

		test('7. the exports work outside the explorer: absolute links, and a script that runs end to end', async ({ page, request }) => {
			await authorise(page);
			await exchange(page);
			await callMe(page);
			await expect(page.getByTestId('me-result')).toBeVisible();
			// A copied curl of the successful exchange says why it would fail now.
			await page.getByTestId('exchange-token').first().getByText('Show the curl command').click();
			await expect(page.getByTestId('exchange-token').first()).toContainText('a code is single use');

			const permalink = await page.getByTestId('run-permalink').getAttribute('href');
			const markdown = await (await request.get(`${permalink}/export/markdown`)).text();
			expect(markdown.split(`${EXPLORER}${permalink}\n`)).toHaveLength(2);
			expect(markdown).toContain(`- Permalink: ${EXPLORER}${permalink}\n`);
			const script = await (await request.get(`${permalink}/export/shell`)).text();
			expect(script).not.toContain(DEMO_SECRET);

			const dir = await mkdtemp(join(tmpdir(), 'sso-script-'));
			try {
				await writeFile(join(dir, 'run.sh'), script);
				const { stdout } = await run('bash', [join(dir, 'run.sh')], { env: { PATH: process.env.PATH, CLIENT_SECRET: DEMO_SECRET }, timeout: 30_000 });
				// A fresh code from the control API, the token exchange with it, then me.json with the token it issued.
				expect(stdout.match(/\(HTTP 200\)/g)).toHaveLength(3);
				expect(stdout).toContain('"access_token"');
				expect(stdout).toContain('"verifications"');

				// With a wrong secret the exchange fails: the script says where and stops, before me.json.
				const failed = await run('sh', [join(dir, 'run.sh')], { env: { PATH: process.env.PATH, CLIENT_SECRET: 'not-the-secret' }, timeout: 30_000 }).then(
					() => null,
					(error: { code: number; stdout: string; stderr: string }) => error
				);
				expect(failed?.code).toBe(1);
				expect(failed?.stderr).toMatch(/^Stopped at step \d \(token\): it answered HTTP 401 \(the run recorded 200 OK\); the answer is above\.$/m);
				expect(failed?.stdout.match(/\(HTTP /g)).toHaveLength(2); // the fresh code, then the refused exchange
				expect(failed?.stdout).not.toContain('"verifications"');
			} finally {
				await rm(dir, { recursive: true, force: true });
			}
		});

		test('8. a dropped client_id is diagnosed as missing credentials only, each sentence once', async ({ page }) => {
			await authorise(page);
			const annotation = await tamper(page, 'Send without it', 'client_id');
			await expect(annotation).toHaveAttribute('data-row', 'token-invalid-client');
			await expect(annotation).not.toContainText('does not match the client ID');
			const text = await annotation.innerText();
			const sentences = text.split(/(?<=\.)\s+/).filter((s) => s.length > 20 && !/^Fix:/.test(s));
			expect(sentences.length).toBe(new Set(sentences).size);
		});

		test('10. a run is listed once something was sent, titled with how it ended', async ({ page }) => {
			// A link built and opened, then abandoned: nothing was sent, so no run.
			await open(page, '/');
			const link = await page.getByTestId('auth-link').innerText();
			expect((await page.request.post('/api/walk/start', { data: { link } })).status()).toBe(200);
			await open(page, '/runs');
			await expect(page.locator('main')).not.toContainText('walk, demo-client');

			await authorise(page, undefined, 'cancel');
			await open(page, '/');
			await page.getByTestId('open-link').click();
			await signInAndDecide(page, 'student@example.com', 'authorise');
			await exchange(page);
			await callMe(page);
			await open(page, '/runs');
			const titles = page.locator('main').getByRole('link', { name: /walk, demo-client/ });
			await expect(titles).toHaveText(['Sandbox walk, demo-client: me.json 200', 'Sandbox walk, demo-client: cancelled']);
		});

		test('11. on one person’s machine the form says any public https target is allowed, and private ones are still refused', async ({ page }) => {
			await open(page, '/');
			await page.getByLabel('Custom deployment').check();
			await expect(page.getByTestId('target-rule')).toContainText('any https deployment on a public address is allowed');
			await expect(page.getByTestId('target-rule')).toContainText('private, loopback and other internal addresses stay refused');
			await page.getByLabel('Authorisation URL').fill('https://10.1.2.3');
			await page.getByLabel('Accounts URL').fill('https://10.1.2.3');
			await page.getByRole('button', { name: 'Save client settings' }).click();
			await expect(page.getByTestId('auth-link')).toContainText('https://10.1.2.3/sso/student?');
			await expect(page.getByTestId('walk-message')).toHaveCount(0);
			await page.getByTestId('me-credential').selectOption('none');
			await page.getByTestId('read-me').click();
			const me = page.getByTestId('exchange-me');
			await expect(me.getByTestId('annotation')).toHaveAttribute('data-outcome', 'transport');
			await expect(me.locator('.failure[role="alert"]')).toContainText('a private address');
		});
	});
}
