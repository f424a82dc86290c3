#!/usr/bin/env node
// `npx sso-flow-explorer`: the explorer and the sandbox's two hosts from the built package, with `npm start`'s
// defaults; `… app-check` and `… scenarios` run the two command-line tools (bundled into dist/ when packed).
import { parseArgs } from 'node:util';

const USAGE = `Usage: npx sso-flow-explorer [--port PORT] [--host HOST] [--data-dir DIR]
       npx sso-flow-explorer app-check --start-url URL [options]   (app-check --help)
       npx sso-flow-explorer scenarios [options]                   (scenarios --help)

Starts the explorer on PORT (3000) and the sandbox's authorisation and accounts hosts on the next two ports
(AUTH_PORT and ACCOUNTS_PORT, when set, win), and prints their URLs.

  --port PORT       the explorer's port; the sandbox's hosts take PORT+1 and PORT+2
  --host HOST       the interface all three listen on (127.0.0.1; 0.0.0.0 shares them: see the README first)
  --data-dir DIR    where the sandbox and the saved runs are kept (./data)
  --help            this text

Every other setting is read from the environment, as \`npm start\` reads it (README, Configuration).`;

const TOOLS = new Set(['app-check', 'scenarios']);

/** The environment the explorer reads, from the options; a message on a bad one. */
function environmentFrom(argv) {
	const { values } = parseArgs({
		args: argv,
		options: { port: { type: 'string' }, host: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean' } },
		strict: true
	});
	if (values.help) return 'help';
	const env = {};
	if (values.port !== undefined) {
		const port = /^\d{1,5}$/.test(values.port) ? Number(values.port) : NaN;
		if (!(port >= 1 && port <= 65533)) throw new Error(`--port must be a port number from 1 to 65533 (the sandbox takes the next two), got "${values.port}".`);
		env.PORT = String(port);
		env.AUTH_PORT = process.env.AUTH_PORT || String(port + 1);
		env.ACCOUNTS_PORT = process.env.ACCOUNTS_PORT || String(port + 2);
	}
	if (values.host !== undefined) env.HOST = values.host;
	if (values['data-dir'] !== undefined) {
		if (values['data-dir'].trim() === '') throw new Error('--data-dir needs a directory.');
		env.DATA_DIR = values['data-dir'];
	}
	return env;
}

const [first, ...rest] = process.argv.slice(2);
if (first !== undefined && TOOLS.has(first)) {
	// The tool reads its own options from process.argv, as under `npm run <tool> -- …`.
	process.argv = [process.argv[0], first, ...rest];
	await import(`../dist/${first}.js`);
} else {
	let env;
	try {
		env = environmentFrom(process.argv.slice(2));
	} catch (error) {
		console.error(`${error.message}\n\n${USAGE}`);
		process.exit(2);
	}
	if (env === 'help') {
		console.log(USAGE);
		process.exit(0);
	}
	Object.assign(process.env, env);
	await import('../scripts/serve.js');
}
