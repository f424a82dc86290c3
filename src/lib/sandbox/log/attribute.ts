/**
 * Attribution: the first step of each sandbox endpoint. It finds the workspace of what a request names and files
 * the request's log entry there before any check can refuse it, so an app's mistakes (me.json without User-Agent,
 * a token request as JSON, an unknown code) appear in its own workspace's log and live page, not the default one.
 *
 * Only what the sandbox knows attributes, so no one can file a request under a workspace it names falsely: a
 * client id when it is registered (client ids are public: the links carry them), a code or token when the store
 * finds it (one the sandbox issued). The client comes first: a registered client's request is its workspace's
 * whatever code it sends. A request that names nothing known stays unclaimed (capture.ts: the default
 * workspace's log, or none in public mode).
 */
import type { IncomingMessage } from 'node:http';
import { correlationValues, type RequestNames } from '../../http/correlation';
import type { AccessTokenFound, SandboxStore, SandboxWorkspace } from '../store';
import { headerPairs, useWorkspace } from './capture';

/** The workspace of a registered client the request names, else of a code or token the sandbox issued. */
export function workspaceNamed(store: SandboxStore, names: RequestNames): SandboxWorkspace | null {
	const client = names.clientId === undefined ? undefined : store.findClientAnywhere(names.clientId);
	if (client) return client.workspace;
	for (const credential of [names.code, names.presented]) {
		// Finds a code or refresh token too, in whichever workspace issued it.
		const issuer = credential === undefined ? null : store.findAccessToken(credential).workspace;
		if (issuer) return issuer;
	}
	return null;
}

/** Files `req` under the workspace of what it names (see `workspaceNamed`); answers that workspace, or null. */
export function attribute(store: SandboxStore, req: IncomingMessage, names: RequestNames): SandboxWorkspace | null {
	const workspace = workspaceNamed(store, names);
	if (workspace) useWorkspace(req, workspace);
	return workspace;
}

/**
 * `attribute` for a request that names only a token it presents (me.json): files it under the workspace that issued
 * the token, and answers the store's finding, so the answer reuses it rather than looking the token up again.
 */
export function attributePresented(store: SandboxStore, req: IncomingMessage, token: string): AccessTokenFound {
	const found = store.findAccessToken(token);
	if (found.workspace) useWorkspace(req, found.workspace);
	return found;
}

/**
 * What a request names, read from it as it arrived (its target, headers and the body read, if any): for a request
 * refused before its parameters were parsed. A request that parsed reads its names from its parameters instead
 * (`requestNames`), with no second parse.
 */
export function namesAsSent(req: IncomingMessage, body: string | null): RequestNames {
	const { clientId, code, presented } = correlationValues({ url: req.url ?? '/', headers: headerPairs(req.rawHeaders), body }, null);
	return { clientId, code, presented };
}
