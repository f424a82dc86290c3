/**
 * The app check's calls to the sandbox control API: reading the workspace's request log, setting and reading the
 * one-shot outcome rules of the app's client, and making sure a user with an active verification can sign in.
 * Each call carries the workspace's key, or, for the default workspace, the admin token when one is set (else
 * the sandbox answers this machine).
 */
import { FIXTURE_PASSWORD, FIXTURE_USERS } from '$lib/sandbox/fixtures';
import { readLogEntry, type LogEntry } from '$lib/http/logged-exchange';
import type { OutcomeRule } from '$lib/features/app-check/pure/checks';
import { addDays } from '$lib/dates';
import { jsonParse } from '$lib/http/json';

export interface SandboxAccess {
	accountsUrl: string;
	workspaceKey: string | null;
	adminToken: string | null;
}

export class ControlError extends Error {}

const TIMEOUT_MS = 10_000;

async function call(access: SandboxAccess, method: 'GET' | 'POST', path: string, body?: object): Promise<{ status: number; body: Record<string, unknown> }> {
	const headers: Record<string, string> = { accept: 'application/json' };
	if (body) headers['content-type'] = 'application/json';
	if (access.workspaceKey) headers['x-sandbox-workspace-key'] = access.workspaceKey;
	else if (access.adminToken) headers['authorization'] = `Bearer ${access.adminToken}`;
	let response: Response;
	try {
		response = await fetch(`${access.accountsUrl}${path}`, {
			method,
			headers,
			redirect: 'manual',
			signal: AbortSignal.timeout(TIMEOUT_MS),
			...(body ? { body: JSON.stringify(body) } : {})
		});
	} catch (error) {
		throw new ControlError(`The sandbox at ${access.accountsUrl} could not be reached (${(error as Error).message}).`);
	}
	const text = await response.text();
	let parsed: unknown = null;
	try {
		parsed = jsonParse(text);
	} catch {
		// not JSON: the status says enough
	}
	const record = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
	return { status: response.status, body: record };
}

function refusal(what: string, answer: { status: number; body: Record<string, unknown> }): ControlError {
	const why = typeof answer.body['error'] === 'string' ? answer.body['error'].replace(/\.$/, '') : `status ${answer.status}`;
	const hint =
		answer.status === 401 || answer.status === 403
			? ' Give the key of the workspace your client is in (--workspace-key or SANDBOX_WORKSPACE_KEY), or the admin token (SANDBOX_ADMIN_TOKEN) for the default workspace.'
			: '';
	return new ControlError(`The sandbox's control API could not ${what}: ${why}.${hint}`);
}

export interface WorkspaceState {
	today: string;
	clients: string[];
	users: { login: string; verifications: { supergroup: string; expires_on: string }[]; deletion_requested: boolean }[];
}

/** The workspace's clients (ids) and users; throws a ControlError saying which credential to give when refused. */
export async function workspaceState(access: SandboxAccess): Promise<WorkspaceState> {
	const answer = await call(access, 'GET', '/sandbox/state');
	if (answer.status !== 200) throw refusal('read the workspace', answer);
	const clients = Array.isArray(answer.body['clients']) ? answer.body['clients'] : [];
	const users = Array.isArray(answer.body['users']) ? answer.body['users'] : [];
	return {
		today: typeof answer.body['today'] === 'string' ? answer.body['today'] : new Date().toISOString().slice(0, 10),
		clients: clients.map((c) => (c as { client_id?: unknown }).client_id).filter((id): id is string => typeof id === 'string'),
		users: users as WorkspaceState['users']
	};
}

/** The id of the workspace's newest log entry (0 for an empty log): the check reads only what comes after it. */
export async function logMark(access: SandboxAccess): Promise<number> {
	const entries = await readLog(access, 1);
	return entries[0]?.id ?? 0;
}

/** The log's entries, read through its schema; one this version cannot read (a sandbox of another version) is left out. */
export async function readLog(access: SandboxAccess, limit = 500): Promise<LogEntry[]> {
	const answer = await call(access, 'GET', `/sandbox/log?limit=${limit}`);
	if (answer.status !== 200) throw refusal('read the request log', answer);
	const entries = Array.isArray(answer.body['entries']) ? answer.body['entries'] : [];
	return entries.flatMap((raw: unknown) => readLogEntry(raw) ?? []);
}

/** Sets a one-shot outcome for the client's next matching request; a message when the sandbox refused. */
async function setOutcome(access: SandboxAccess, clientId: string, outcome: OutcomeRule): Promise<string | null> {
	const answer = await call(access, 'POST', '/sandbox/outcomes', { client_id: clientId, outcome });
	if (answer.status === 200 || answer.status === 201) return null;
	if (answer.status === 404) return 'This sandbox has no outcome rules (POST /sandbox/outcomes answered 404): it is older than the app check; update it.';
	return refusal(`set the outcome \`${outcome}\``, answer).message;
}

/**
 * Runs `use` with the client's one-shot outcome set (none when `outcome` is null), and clears the rule once `use`
 * is done, however it ends (a result, an early return, a throw), so a rule the check never triggered cannot fire on
 * the client's next real sign-in. A message instead when the sandbox refused the rule.
 */
export async function withOutcome<T extends object>(access: SandboxAccess, clientId: string, outcome: OutcomeRule | null, use: () => Promise<T>): Promise<T | string> {
	if (!outcome) return use();
	const problem = await setOutcome(access, clientId, outcome);
	if (problem) return problem;
	try {
		return await use();
	} finally {
		await call(access, 'POST', '/sandbox/outcomes/clear', { client_id: clientId, outcome }).catch(() => {});
	}
}

/** Whether the sandbox applied the outcome (`GET /sandbox/outcomes`): false while it is still pending; null when the sandbox does not say. */
export async function outcomeUsed(access: SandboxAccess, clientId: string, outcome: OutcomeRule): Promise<boolean | null> {
	const answer = await call(access, 'GET', `/sandbox/outcomes?client_id=${encodeURIComponent(clientId)}`);
	if (answer.status !== 200 || !Array.isArray(answer.body['pending'])) return null;
	return !answer.body['pending'].some((rule) => (rule as { outcome?: unknown })?.outcome === outcome);
}

export interface CheckUser {
	login: string;
	password: string;
}

/** The login the app check signs in with when the workspace has no fixture user verified in the supergroup. */
export const APP_CHECK_LOGIN = 'app-check@example.com';

/**
 * A user who can sign in and holds an active verification in `supergroup`: the sandbox's demo user for it
 * (fixtures.ts) when the workspace has them, else the check's own user, created in the workspace.
 */
export async function checkUser(access: SandboxAccess, state: WorkspaceState, supergroup: string): Promise<CheckUser> {
	const active = (login: string) =>
		state.users.some((u) => u.login === login && !u.deletion_requested && u.verifications.some((v) => v.supergroup === supergroup && v.expires_on > state.today));
	const fixture = FIXTURE_USERS.find((u) => u.verifications.some((v) => v.supergroup === supergroup && v.expiresInDays > 0) && active(u.login));
	if (fixture) return { login: fixture.login, password: FIXTURE_PASSWORD };
	if (!active(APP_CHECK_LOGIN)) {
		const answer = await call(access, 'POST', '/sandbox/users', {
			login: APP_CHECK_LOGIN,
			password: FIXTURE_PASSWORD,
			verifications: [{ supergroup, expires_on: addDays(state.today, 365) }]
		});
		if (answer.status !== 200) throw refusal('create a user to sign in with', answer);
	}
	return { login: APP_CHECK_LOGIN, password: FIXTURE_PASSWORD };
}
