/**
 * The process's whole configuration, the explorer's and its sandbox's, read from the environment once: the only
 * reader of `process.env` (the command-line tools pass theirs to their own option parsers). Every value has a
 * default, so `npm start` needs none; a wrong value stops the start with a message naming the variable, what was
 * wrong and what to write.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { DEFAULT_SLOW_CLIENT_LIMITS, type SlowClientLimits } from '$lib/http/listener-guards';
import { isLoopbackAddress, MIN_ADMIN_TOKEN_LENGTH } from '$lib/sandbox/admin-access';
import { DEFAULT_WORKSPACE_POLICY, type WorkspacePolicy } from '$lib/sandbox/workspaces';

/** One entry of EXPLORER_ALLOWED_HOSTS: a host (WHATWG-normalised), an optional port, and whether it is `*.host`. */
export interface HostRule {
	host: string;
	/** null: any port. */
	port: number | null;
	/** `*.example.com`: any subdomain of `example.com`, not `example.com` itself. */
	subdomains: boolean;
}

/**
 * How the built-in sandbox runs and is administered. Kept apart from `ExplorerConfig.sandbox` (its public
 * addresses, which pages show) so that spreading those can never carry the admin token along.
 */
export interface SandboxService {
	/** SANDBOX=off: the explorer runs without it (a custom target only). */
	enabled: boolean;
	/** SANDBOX_CONTROL_API=off: no control API, no panel, no log. */
	controlApi: boolean;
	/** SANDBOX_ADMIN_TOKEN: what administration needs; null: only this machine administers (admin-access.ts). */
	adminToken: string | null;
	/** Public mode, idle expiry and creation rate of workspaces. */
	workspaces: WorkspacePolicy;
	/** Its SQLite file, in DATA_DIR. */
	databasePath: string;
}

export interface ExplorerConfig {
	port: number;
	authPort: number;
	accountsPort: number;
	/** Origin the explorer is reached at, e.g. `http://localhost:3000`. */
	publicOrigin: string;
	/** The sandbox's own hosts: the default target, always allowed (by exact origin). */
	sandbox: { authUrl: string; accountsUrl: string };
	sandboxService: SandboxService;
	/** The saved runs' SQLite file, in DATA_DIR. */
	runsDatabasePath: string;
	/** SAVED_RUNS_MAX_MB: what the saved runs may take in all (features/runs/run-limits.ts). */
	savedRunsMaxMb: number;
	allowedHosts: HostRule[];
	/** Whether allowed hosts may resolve to private, loopback and other internal addresses. */
	allowPrivateTargets: boolean;
	/**
	 * Which custom targets a walk may use besides the allowed hosts. `public-https`: bound to loopback, the
	 * explorer is one person's own tool, so any https host on a public address is allowed; `allowlist`: a shared
	 * deployment calls only the hosts the operator listed.
	 */
	targetRule: 'public-https' | 'allowlist';
	outboundTimeoutMs: number;
	/** Interface all three listeners bind: loopback unless the operator shares the deployment (HOST=0.0.0.0). */
	host: string;
	/**
	 * Names besides localhost, 127.0.0.1 and [::1] (and PUBLIC_ORIGIN's host) that requests may address in their
	 * Host header; any other name is refused, so a page whose name rebinds to this machine cannot drive it.
	 */
	allowedHostNames: string[];
	/** How long a client may take to send its request: the headers, and the whole request with its body. */
	slowClients: SlowClientLimits;
	/**
	 * ADDRESS_HEADER, lower case: the header a reverse proxy carries each visitor's address in. adapter-node reads it
	 * (with XFF_DEPTH) to answer getClientAddress; null: the connection's own address is the visitor's.
	 */
	addressHeader: string | null;
}


export type ConfigResult = { ok: true; config: ExplorerConfig } | { ok: false; message: string };

/**
 * A variable with a default, read by `read`; each `problem` it reports is an issue naming the variable, and the
 * configuration is then not valid.
 */
function variable<T>(fallback: string, read: (raw: string, problem: (message: string) => void) => T) {
	return z
		.string()
		.default(fallback)
		.transform((raw, ctx) => {
			let valid = true;
			const value = read(raw, (message) => {
				valid = false;
				ctx.addIssue({ code: 'custom', message });
			});
			return valid ? value : z.NEVER;
		});
}

const wholeNumber = (raw: string, min: number, max: number) => /^\d+$/.test(raw.trim()) && Number(raw) >= min && Number(raw) <= max;

const port = (fallback: number) =>
	variable(String(fallback), (raw, problem) => {
		if (!wholeNumber(raw, 1, 65535)) problem(`must be a port number from 1 to 65535, got "${raw}"`);
		return Number(raw);
	});

/** Unset or empty: none (the default is derived from PORT). */
const origin = variable('', (raw, problem) => {
	if (raw.trim() === '') return undefined;
	const url = URL.canParse(raw.trim()) ? new URL(raw.trim()) : null;
	if (!url || !['http:', 'https:'].includes(url.protocol) || url.pathname !== '/' || url.search || url.hash || url.username) {
		problem(`must be an http(s) origin such as https://explorer.example.com, got "${raw}"`);
	}
	return url?.origin;
});

const commaList = (raw: string) => raw.split(',').map((e) => e.trim()).filter((e) => e !== '');

const allowedHosts = variable('', (raw, problem) => {
	const rules: HostRule[] = [];
	for (const entry of commaList(raw)) {
		const rule = parseHostRule(entry);
		if (typeof rule === 'string') problem(rule);
		else rules.push(rule);
	}
	return rules;
});

const onOff = (fallback: 'on' | 'off') =>
	variable(fallback, (raw, problem) => {
		const value = raw.trim().toLowerCase();
		if (value !== 'on' && value !== 'off' && value !== '') problem(`must be "on" or "off", got "${raw}"`);
		return value === '' ? fallback === 'on' : value === 'on';
	});

const positiveNumber = (fallback: number, whole: boolean) =>
	variable(String(fallback), (raw, problem) => {
		const value = raw.trim();
		const form = whole ? /^\d{1,6}$/ : /^\d{1,6}(\.\d+)?$/;
		if (!form.test(value) || Number(value) <= 0) problem(`must be ${whole ? 'a whole number' : 'a number'} greater than 0, got "${raw}"`);
		return Number(value);
	});

/** Unset or empty: `data`, beside the working directory. */
const directory = variable('data', (raw) => raw.trim() || 'data');

/** Unset or empty: none. */
const adminToken = variable('', (raw, problem) => {
	if (raw === '') return null;
	if (raw.length < MIN_ADMIN_TOKEN_LENGTH) problem(`must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters (e.g. openssl rand -base64 24)`);
	else if (!/^[\x21-\x7e]+$/.test(raw)) problem('must be printable ASCII without spaces');
	return raw;
});

const timeoutMs = (fallback: number) =>
	variable(String(fallback), (raw, problem) => {
		if (!wholeNumber(raw, 100, 120_000)) problem(`must be a whole number of milliseconds from 100 to 120000, got "${raw}"`);
		return Number(raw);
	});

const listenHost = variable('127.0.0.1', (raw, problem) => {
	const value = raw.trim();
	if (value === '' || /[\s/?#@]/.test(value)) problem(`must be an address to listen on, such as 127.0.0.1 or 0.0.0.0, got "${raw}"`);
	return value;
});

/** Host names, WHATWG-normalised (lower case, IPv6 in brackets) so they compare equal to a parsed Host header. */
const hostNames = variable('', (raw, problem) => {
	const names: string[] = [];
	for (const entry of commaList(raw)) {
		const url = !/[/?#@\\*\s:]/.test(entry.replace(/^\[.*\]$/, '')) && URL.canParse(`http://${entry}`) ? new URL(`http://${entry}`) : null;
		if (url) names.push(url.hostname);
		else problem(`entry "${entry}" is not a host name; write names without scheme or port, e.g. explorer.example.com,support-box`);
	}
	return names;
});

/** Unset or empty: none. An HTTP header name (RFC 9110 token). */
const headerName = variable('', (raw, problem) => {
	const value = raw.trim();
	if (value === '') return null;
	if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(value)) problem(`must be an HTTP header name such as X-Forwarded-For, got "${raw}"`);
	return value.toLowerCase();
});

const EnvSchema = z.object({
	PORT: port(3000),
	AUTH_PORT: port(3001),
	ACCOUNTS_PORT: port(3002),
	PUBLIC_ORIGIN: origin,
	EXPLORER_ALLOWED_HOSTS: allowedHosts,
	EXPLORER_ALLOW_PRIVATE_TARGETS: onOff('off'),
	OUTBOUND_TIMEOUT_MS: timeoutMs(10_000),
	HOST: listenHost,
	ALLOWED_HOST_NAMES: hostNames,
	HEADERS_TIMEOUT_MS: timeoutMs(DEFAULT_SLOW_CLIENT_LIMITS.headersTimeoutMs),
	REQUEST_TIMEOUT_MS: timeoutMs(DEFAULT_SLOW_CLIENT_LIMITS.requestTimeoutMs),
	// adapter-node's own variable, read here too so that a request through a proxy it does not name can be told apart.
	ADDRESS_HEADER: headerName,
	DATA_DIR: directory,
	SANDBOX: onOff('on'),
	SANDBOX_CONTROL_API: onOff('on'),
	SANDBOX_ADMIN_TOKEN: adminToken,
	SANDBOX_PUBLIC: onOff('off'),
	SANDBOX_WORKSPACE_IDLE_HOURS: positiveNumber(DEFAULT_WORKSPACE_POLICY.idleHours, false),
	SANDBOX_WORKSPACES_PER_ADDRESS_PER_HOUR: positiveNumber(DEFAULT_WORKSPACE_POLICY.creationsPerAddressPerHour, true),
	// A few thousand imported customer HARs.
	SAVED_RUNS_MAX_MB: positiveNumber(2048, true)
}).refine((e) => e.HEADERS_TIMEOUT_MS <= e.REQUEST_TIMEOUT_MS, {
	path: ['HEADERS_TIMEOUT_MS'],
	message: 'must not be longer than REQUEST_TIMEOUT_MS (the whole request includes its headers)'
});

/**
 * `host`, `host:port` or `*.domain[:port]`; anything else (a scheme, a path, credentials) is an error message.
 * Hosts go through the WHATWG URL parser so they compare equal to the hostnames of parsed target URLs.
 */
export function parseHostRule(entry: string): HostRule | string {
	const problem = `EXPLORER_ALLOWED_HOSTS entry "${entry}" is not a host or host:port; write e.g. api.example.com, api.example.com:8443 or *.example.com`;
	const subdomains = entry.startsWith('*.');
	const rest = subdomains ? entry.slice(2) : entry;
	if (rest === '' || /[/?#@\\*\s]/.test(rest) || !URL.canParse(`http://${rest}`)) return problem;
	const url = new URL(`http://${rest}`);
	// Without an explicit port the URL parser drops `:80`; keep what was written.
	const writtenPort = /:(\d+)$/.exec(rest)?.[1];
	if (subdomains && (url.hostname.startsWith('[') || /^[\d.]+$/.test(url.hostname))) return problem;
	return { host: url.hostname, port: writtenPort === undefined ? null : Number(writtenPort), subdomains };
}

/** Whether listening on `host` reaches this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
	const bare = host.replace(/^\[(.*)\]$/, '$1');
	return bare.toLowerCase() === 'localhost' || isLoopbackAddress(bare);
}

export function loadConfig(env: Record<string, string | undefined>): ConfigResult {
	const parsed = EnvSchema.safeParse(env);
	if (!parsed.success) {
		const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
		return { ok: false, message: `The explorer's configuration is not valid:\n${lines.join('\n')}` };
	}
	const e = parsed.data;
	return {
		ok: true,
		config: {
			port: e.PORT,
			authPort: e.AUTH_PORT,
			accountsPort: e.ACCOUNTS_PORT,
			publicOrigin: e.PUBLIC_ORIGIN ?? `http://localhost:${e.PORT}`,
			sandbox: { authUrl: `http://localhost:${e.AUTH_PORT}`, accountsUrl: `http://localhost:${e.ACCOUNTS_PORT}` },
			sandboxService: {
				enabled: e.SANDBOX,
				controlApi: e.SANDBOX_CONTROL_API,
				adminToken: e.SANDBOX_ADMIN_TOKEN,
				workspaces: {
					public: e.SANDBOX_PUBLIC,
					idleHours: e.SANDBOX_WORKSPACE_IDLE_HOURS,
					creationsPerAddressPerHour: e.SANDBOX_WORKSPACES_PER_ADDRESS_PER_HOUR
				},
				databasePath: join(e.DATA_DIR, 'sandbox.db')
			},
			runsDatabasePath: join(e.DATA_DIR, 'explorer.db'),
			savedRunsMaxMb: e.SAVED_RUNS_MAX_MB,
			allowedHosts: e.EXPLORER_ALLOWED_HOSTS,
			allowPrivateTargets: e.EXPLORER_ALLOW_PRIVATE_TARGETS,
			targetRule: isLoopbackHost(e.HOST) ? 'public-https' : 'allowlist',
			outboundTimeoutMs: e.OUTBOUND_TIMEOUT_MS,
			host: e.HOST,
			allowedHostNames: e.ALLOWED_HOST_NAMES,
			slowClients: { headersTimeoutMs: e.HEADERS_TIMEOUT_MS, requestTimeoutMs: e.REQUEST_TIMEOUT_MS },
			addressHeader: e.ADDRESS_HEADER
		}
	};
}

let cached: ExplorerConfig | undefined;

/** The process's configuration, read from `process.env` on first use. Throws (once, at start) when it is invalid. */
export function config(): ExplorerConfig {
	if (cached) return cached;
	const result = loadConfig(process.env);
	if (!result.ok) throw new Error(result.message);
	cached = result.config;
	return cached;
}
