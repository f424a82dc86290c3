#!/usr/bin/env node
// `npm start`: build the explorer if the build is missing or older than the sources, then run it.
// The built app starts the sandbox's two hosts itself (src/hooks.server.ts), so one process serves all three. The
// explorer's server is the app's own (src/lib/platform/explorer-server.ts), around adapter-node's handler: it binds
// HOST, checks the Host header and bounds slow clients, which adapter-node's build/index.js does not.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const builtEntry = join(root, 'build', 'handler.js');
const inputs = ['src', 'static', 'package.json', 'svelte.config.js', 'vite.config.ts'];

function newestModification(path) {
	if (!existsSync(path)) return 0;
	const stat = statSync(path);
	if (!stat.isDirectory()) return stat.mtimeMs;
	return readdirSync(path).reduce((newest, name) => Math.max(newest, newestModification(join(path, name))), stat.mtimeMs);
}

const builtAt = existsSync(builtEntry) ? statSync(builtEntry).mtimeMs : 0;
const sourcesAt = Math.max(...inputs.map((p) => newestModification(join(root, p))));
if (builtAt < sourcesAt) {
	console.log(builtAt ? 'Sources changed since the last build; rebuilding…' : 'No build yet; building the explorer…');
	const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
	if (result.status !== 0) {
		console.error('The build failed (see above). Fix the error, or run `npm run build` to see it again.');
		process.exit(result.status ?? 1);
	}
}

// adapter-node assumes https when ORIGIN is unset; the explorer is served over plain http by default.
process.env.ORIGIN ??= process.env.PUBLIC_ORIGIN ?? `http://localhost:${process.env.PORT ?? 3000}`;
// Each route has its own body limit (src/lib/platform/body-limits.ts), the HAR import's far above adapter-node's one.
process.env.BODY_SIZE_LIMIT = 'Infinity';
const { handler } = await import(builtEntry); // runs the app's init: configuration, sandbox, sessions
await globalThis[Symbol.for('sso-flow-explorer.serve')](handler);
