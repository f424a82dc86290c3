/**
 * Child process of the load benchmark: a bare `node:http` server answering a fixed JSON body, and the peer,
 * oauth2-mock-server (the most used OAuth 2 mock server on npm), each on its own port of 127.0.0.1, so autocannon
 * in the parent does not share their event loop. Tells the parent their URLs over IPC.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuth2Server } from 'oauth2-mock-server';
import type { ServersReady } from './load-protocol';

/** The shape of a me.json answer, so the bare server sends a body of the same size. */
const FIXED_BODY = JSON.stringify({ sbid_number: 'STU0001', verifications: [{ supergroup: 'student', expires_on: '2027-01-01' }] });

async function main(): Promise<void> {
	const bare = createServer((req, res) => {
		req.resume();
		res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(FIXED_BODY) });
		res.end(FIXED_BODY);
	});
	await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));

	// As its README starts it: one RS256 key, which signs every token it issues.
	const peer = new OAuth2Server();
	await peer.issuer.keys.generate('RS256');
	await peer.start(0, '127.0.0.1');

	const ready: ServersReady = {
		bareUrl: `http://127.0.0.1:${(bare.address() as AddressInfo).port}`,
		peerUrl: `http://127.0.0.1:${peer.address().port}`,
		// Its package exports no package.json.
		peerVersion: JSON.parse(readFileSync(new URL('../node_modules/oauth2-mock-server/package.json', import.meta.url), 'utf8')).version
	};
	process.send!(ready);
	process.on('disconnect', async () => {
		bare.close();
		await peer.stop();
		process.exit(0);
	});
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
