/**
 * The writes that save a client or a user into a workspace, one operation for every door: the control API
 * (`POST /sandbox/clients`, `POST /sandbox/users`) and the explorer's sandbox panel call these, never the store's
 * upserts directly, so both hold public mode's limits and answer a client id another workspace holds alike.
 */
import type { z } from 'zod';
import { ClientIdTakenError, type SandboxClient, type SandboxUser, type SandboxWorkspace, type UserInput } from '../store';
import { WORKSPACE_LIMITS, type WorkspacePolicy } from '../workspaces';
import type { ClientBody } from './control-schemas';

/** What the writes need of the policy: public mode is the one mode with limits. */
export type WriteRules = Pick<WorkspacePolicy, 'public'>;

/** A refusal is a conflict with what the sandbox holds: the workspace is `full`, or the client id is `taken` elsewhere. */
export type Written<T> = { ok: true; value: T; created: boolean } | { ok: false; status: 409; reason: 'full' | 'taken'; error: string };

/** Public mode's limits: a workspace cannot grow past them (an existing client or user can still be replaced). */
function overLimit(rules: WriteRules, what: 'clients' | 'users', count: () => number): Written<never> | null {
	// `count` is asked only in public mode (counting users reads every one).
	if (!rules.public) return null;
	const held = count();
	if (held < WORKSPACE_LIMITS[what]) return null;
	return { ok: false, status: 409, reason: 'full', error: `This workspace has ${held} ${what}, the most public mode allows (${WORKSPACE_LIMITS[what]}). Replace one, or reset the workspace.` };
}

/** Creates or replaces a client from a validated body: a missing name keeps the old one (or is the id). */
export function writeClient(workspace: SandboxWorkspace, body: z.infer<typeof ClientBody>, rules: WriteRules): Written<SandboxClient> {
	const existing = workspace.getClient(body.client_id);
	const full = !existing && overLimit(rules, 'clients', () => workspace.listClients().length);
	if (full) return full;
	try {
		const client = workspace.upsertClient({
			client_id: body.client_id,
			client_secret: body.client_secret,
			name: body.name ?? existing?.name ?? body.client_id,
			redirect_uris: body.redirect_uris,
			countries: body.countries.map((c) => c.toLowerCase()),
			verification_key: body.verification_key ?? 'supergroup'
		});
		return { ok: true, value: client, created: !existing };
	} catch (error) {
		if (!(error instanceof ClientIdTakenError)) throw error;
		return {
			ok: false,
			status: 409,
			reason: 'taken',
			error: `client_id \`${body.client_id}\` is taken by another workspace: client ids are unique across the sandbox, because the token endpoint and the authorisation page find a request's workspace by its client_id. Choose another.`
		};
	}
}

/** Creates or replaces a user (by login). */
export function writeUser(workspace: SandboxWorkspace, input: UserInput, rules: WriteRules): Written<SandboxUser> {
	const existing = workspace.getUserByLogin(input.login);
	const full = !existing && overLimit(rules, 'users', () => workspace.listUsers().length);
	return full || { ok: true, value: workspace.upsertUser(input), created: !existing };
}
