/**
 * Child process of the load benchmark: a bare `node:http` server answering a fixed JSON body, and the sandbox
 * (in-process `startSandbox`, temporary database), so autocannon in the parent does not share their event loop.
 * Talks to the parent over IPC: `ready` with the URLs, an access token and pre-issued grant codes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../src/lib/sandbox/index';
import { BENCH_CLIENT, BENCH_REDIRECT_URI, type ServersReady } from './load-protocol';

/** The shape of a me.json answer, so the bare server sends a body of the same size. */
const FIXED_BODY = JSON.stringify({ sbid_number: 'STU0001', verifications: [{ supergroup: 'student', expires_on: '2027-01-01' }] });

function send(message: ServersReady): void {
	process.send!(message);
}

async function main(): Promise<void> {
	const codeCount = Number(process.argv[2] ?? 0);
	const bare = createServer((req, res) => {
		req.resume();
		res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(FIXED_BODY) });
		res.end(FIXED_BODY);
	});
	await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));

	const dataDir = mkdtempSync(join(tmpdir(), 'sso-bench-load-'));
	const sandbox = await startSandbox({
		authPort: 0,
		accountsPort: 0,
		hostname: '127.0.0.1',
		explorerOrigin: new URL(BENCH_REDIRECT_URI).origin,
		databasePath: join(dataDir, 'sandbox.db'),
		controlApi: false
	});
	const user = sandbox.store.getUserByLogin('student@example.com');
	if (!user) throw new Error('the fixtures have no student@example.com');
	const issue = () => sandbox.store.issueCode({ clientId: BENCH_CLIENT.client_id, userId: user.id, redirectUri: BENCH_REDIRECT_URI });
	const exchanged = sandbox.store.exchangeCode(issue(), BENCH_CLIENT.client_id, BENCH_REDIRECT_URI);
	if (!exchanged.ok) throw new Error(`could not exchange a code for the me.json token: ${exchanged.cause}`);
	// In batches, as the authorisation page would issue them over time; one transaction per batch keeps it quick.
	const codes: string[] = [];
	while (codes.length < codeCount) sandbox.store.transaction(() => {
		for (let i = 0; i < 5000 && codes.length < codeCount; i++) codes.push(issue());
	});

	send({
		bareUrl: `http://127.0.0.1:${(bare.address() as AddressInfo).port}`,
		accountsUrl: sandbox.accountsUrl,
		accessToken: exchanged.tokens.access_token,
		codes
	});
	process.on('disconnect', async () => {
		bare.close();
		await sandbox.close();
		rmSync(dataDir, { recursive: true, force: true });
		process.exit(0);
	});
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
