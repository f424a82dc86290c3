/**
 * Issue 26, point 6: the sandbox under another name was a valid app-check start URL (`http://127.0.0.1:{auth port}`
 * was accepted where `http://localhost:{auth port}` was refused). Every name and address that reaches the sandbox's
 * hosts or the explorer on this machine is refused, by the live page's route and by the CLI.
 */
import { execFile } from 'node:child_process';
import { hostname } from 'node:os';
import { expect, test } from '@playwright/test';
import { EXPLORER, PORT } from './support/ports';

const OWN = [
	[`http://127.0.0.1:${PORT + 1}/sso/student`, 'the sandbox itself (its authorisation host)'],
	[`http://[::1]:${PORT + 2}/sandbox/state`, 'the sandbox itself (its accounts host)'],
	[`http://0.0.0.0:${PORT + 1}/`, 'the sandbox itself (its authorisation host)'],
	[`http://127.1.2.3:${PORT}/live/demo-client`, 'the explorer itself'],
	[`http://${hostname()}:${PORT + 2}/`, 'the sandbox itself (its accounts host)']
] as const;

test('the live page\'s route refuses the sandbox and the explorer under any name of this machine', async ({ request }) => {
	for (const [startUrl, what] of OWN) {
		const answer = await request.post(`${EXPLORER}/live/demo-client/app-check`, { data: { start_url: startUrl } });
		expect(answer.status(), startUrl).toBe(400);
		expect((await answer.json()).message, startUrl).toContain(`is ${what}`);
	}
});

test('the CLI refuses the sandbox it was told of under another name', async () => {
	test.setTimeout(60_000);
	const run = await new Promise<{ code: number; stderr: string }>((resolve) =>
		execFile('npx', ['tsx', 'scripts/app-check.ts', '--start-url', `http://127.0.0.1:${PORT + 1}/sso/student`], { env: { ...process.env, PORT: String(PORT), AUTH_PORT: String(PORT + 1), ACCOUNTS_PORT: String(PORT + 2) }, timeout: 50_000 }, (error, _stdout, stderr) =>
			resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stderr })
		)
	);
	expect(run.code).toBe(2);
	expect(run.stderr).toContain(`The app check could not run: http://127.0.0.1:${PORT + 1} is the sandbox itself (its authorisation host), http://localhost:${PORT + 1};`);
});
