/**
 * The explorer's own HTTP server, which `npm start` (scripts/start.js) runs around adapter-node's request handler in
 * place of adapter-node's server: it listens on HOST (loopback unless shared), refuses requests to foreign names
 * (DNS rebinding), cuts slow clients off, with the settings the sandbox's hosts use, and says `nosniff` on every
 * response (SvelteKit's hooks never see the static files adapter-node serves). scripts/start.js is plain
 * JavaScript outside the bundle, so it finds `serveExplorer` on globalThis once the handler's `init` has run.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import process from 'node:process';
import { config } from './config';
import { explainClientErrors, ownHostNames, refuseForeignHosts, refuseSniffing, slowClientOptions } from '$lib/http/listener-guards';

const SERVE_KEY = Symbol.for('sso-flow-explorer.serve');
/** How long a shutdown waits for requests under way before closing their connections. */
const SHUTDOWN_GRACE_MS = 30_000;

export function serveExplorer(handler: RequestListener): Promise<Server> {
	const { port, host, publicOrigin, allowedHostNames, slowClients } = config();
	const guarded = refuseForeignHosts(ownHostNames(publicOrigin, allowedHostNames), refuseSniffing(handler));
	const server = createServer(slowClientOptions(slowClients), guarded);
	explainClientErrors(server, slowClients);
	const shutdown = (signal: NodeJS.Signals) => {
		// As adapter-node's server does: stop accepting, finish what is under way, then let the services close.
		server.close(() => process.emit('sveltekit:shutdown' as 'SIGTERM', signal));
		server.closeIdleConnections();
		setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
	};
	process.once('SIGINT', shutdown);
	process.once('SIGTERM', shutdown);
	return new Promise((resolve) => {
		server.once('error', (error: NodeJS.ErrnoException) => {
			const reason = error.code === 'EADDRINUSE' ? 'the port is in use; set PORT to a free one' : error.message;
			console.error(`SSO Flow Explorer could not listen on ${host}:${port}: ${reason}.`);
			process.exit(1);
		});
		server.listen(port, host, () => {
			console.log(`Listening on ${host.includes(':') ? `[${host}]` : host}:${port}`);
			resolve(server);
		});
	});
}

/** Hands `serveExplorer` to scripts/start.js. */
export function offerExplorerServer(): void {
	(globalThis as Record<symbol, unknown>)[SERVE_KEY] = serveExplorer;
}
