/**
 * The corpus's integrator apps (tests/corpus/apps/): how each is started, and what it needs installed. Every app
 * reads AUTH_URL, ACCOUNTS_URL, CLIENT_ID, CLIENT_SECRET, PORT and BUG from its environment and serves `/login`
 * (which redirects to the sign-in link) and its callback on http://localhost:PORT.
 */
export type Stack = 'node' | 'python' | 'ruby' | 'go' | 'php';

export interface CorpusApp {
	stack: Stack;
	/** What it is written with, as the table says it. */
	library: string;
	/** The programs it needs on the PATH; a missing one fails the run, naming what to install. */
	toolchain: { command: string; install: string }[];
	/** A command run once before its cases, from the repository's root (a compiled app's build). */
	build?: string[];
	/** The command that starts it, from the repository's root. */
	command: string[];
	/** Its callback's path, registered as http://localhost:PORT{callbackPath}. */
	callbackPath: string;
	/** More environment (e.g. a library's own variable names). */
	env?: (bug: string, base: Record<string, string>) => Record<string, string>;
}

const NODE = { command: 'node', install: 'Node.js 20.19 or later' };
const PYTHON = { command: '/usr/bin/python3', install: 'apt-get install python3-flask python3-requests python3-authlib python3-requests-oauthlib python3-httpx' };
const PHP = { command: 'php', install: 'apt-get install php-cli php-curl' };
const GO = { command: 'go', install: 'apt-get install golang-go golang-golang-x-oauth2-dev' };
const RUBY = { command: 'ruby', install: 'apt-get install ruby ruby-omniauth-oauth2 ruby-sinatra ruby-webrick' };

export const APPS = {
	'node-fetch': { stack: 'node', library: 'node:http + fetch', toolchain: [NODE], command: ['node', 'tests/corpus/apps/node-fetch/app.mjs'], callbackPath: '/callback' },
	'node-passport': {
		stack: 'node',
		library: 'express + passport-oauth2 (tests/apps/passport-app)',
		toolchain: [NODE],
		command: ['node', '--import', 'tsx', 'tests/apps/passport-app/index.ts'],
		callbackPath: '/auth/callback',
		// The passport app's own knobs: its naive variant is the README's code, its corrected one handles what the interface says.
		env: (bug, base) => ({
			PASSPORT_APP_VARIANT: bug === 'none' ? 'corrected' : 'naive',
			AUTH_HOST: base.AUTH_URL!,
			ACCOUNTS_HOST: base.ACCOUNTS_URL!,
			...(bug === 'state-required' ? { STATE: '1' } : {}),
			...(bug === 'redirect-next-dropped' ? { REDIRECT_NEXT: '1' } : {})
		})
	},
	'python-requests': { stack: 'python', library: 'Flask + requests', toolchain: [PYTHON], command: ['/usr/bin/python3', 'tests/corpus/apps/python-requests/app.py'], callbackPath: '/callback' },
	'php-curl': { stack: 'php', library: 'PHP curl', toolchain: [PHP], command: ['php', '-S', 'localhost:${PORT}', 'tests/corpus/apps/php-curl/index.php'], callbackPath: '/callback' },
	'go-oauth2': {
		stack: 'go',
		library: 'golang.org/x/oauth2',
		toolchain: [GO],
		build: ['env', 'GOPATH=/usr/share/gocode', 'GO111MODULE=off', 'go', 'build', '-o', 'tests/corpus/.build/go-oauth2', './tests/corpus/apps/go-oauth2'],
		command: ['tests/corpus/.build/go-oauth2'],
		callbackPath: '/callback'
	},
	'node-spa': { stack: 'node', library: 'single-page app + its own API (fetch)', toolchain: [NODE], command: ['node', 'tests/corpus/apps/node-spa/app.mjs'], callbackPath: '/callback' },
	'ruby-omniauth': { stack: 'ruby', library: 'Sinatra + omniauth-oauth2', toolchain: [RUBY], command: ['ruby', 'tests/corpus/apps/ruby-omniauth/app.rb'], callbackPath: '/auth/sso/callback' },
	'node-simple-oauth2': { stack: 'node', library: 'simple-oauth2', toolchain: [NODE], command: ['node', 'tests/corpus/apps/node-simple-oauth2/app.mjs'], callbackPath: '/callback' },
	'node-openid-client': { stack: 'node', library: 'openid-client', toolchain: [NODE], command: ['node', 'tests/corpus/apps/node-openid-client/app.mjs'], callbackPath: '/callback' },
	'python-oauthlib': { stack: 'python', library: 'Flask + requests-oauthlib', toolchain: [PYTHON], command: ['/usr/bin/python3', 'tests/corpus/apps/python-oauthlib/app.py'], callbackPath: '/callback' },
	'python-httpx': { stack: 'python', library: 'Flask + httpx', toolchain: [PYTHON], command: ['/usr/bin/python3', 'tests/corpus/apps/python-httpx/app.py'], callbackPath: '/callback' },
	'python-authlib': { stack: 'python', library: 'Flask + Authlib', toolchain: [PYTHON], command: ['/usr/bin/python3', 'tests/corpus/apps/python-authlib/app.py'], callbackPath: '/callback' }
} satisfies Record<string, CorpusApp>;

export type AppId = keyof typeof APPS;
