#!/usr/bin/env node
// `npm start`: build the explorer if the build is missing or older than the sources, then run it (scripts/serve.js).
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
	console.log(builtAt ? 'Sources changed since the last build; rebuilding (about a minute)…' : 'No build yet; building the explorer (about a minute)…');
	// The build's own output (plugin timings, "run npm run preview") is for developers: shown only when it fails.
	const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
	if (result.status !== 0) {
		process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
		console.error('The build failed (see above). Fix the error, or run `npm run build` to see it again.');
		process.exit(result.status ?? 1);
	}
}

await import('./serve.js');
