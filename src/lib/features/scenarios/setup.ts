/**
 * Before the first step: on the sandbox, the scenario's own client(s) and user, created through the control API in
 * the run's own workspace (workspace.ts); on a deployment without it, the client and any code or token the caller
 * supplied, or the reason the scenario is skipped.
 */
import { randomBytes } from 'node:crypto';
import { addDays } from '$lib/dates';
import { SCENARIO_COUNTRY, type Scenario } from '$lib/features/scenarios/pure/library';
import { control, controlProblem } from './control-api';
import { emit, type Party, type ScenarioContext, type World } from './world';

/** Why a scenario cannot run against a deployment without the control API, or null when it can. */
export function customSkip(scenario: Scenario, ctx: ScenarioContext): string | null {
	switch (scenario.custom) {
		case null:
			return 'Needs the sandbox control API (it sets up users, clients or the clock), which this target does not have.';
		case 'code':
			return ctx.supplied?.code
				? null
				: "Needs a grant code from a user's browser: open the authorisation link, sign in, and pass the `code` from the redirect with --code (a code works once, so run one scenario with --only).";
		case 'token':
			return ctx.supplied?.token ? null : 'Needs an access token: pass one with --token.';
		case 'as-is':
			return null;
	}
}

const randomSecret = () => randomBytes(18).toString('base64url');

/** Creates the scenario's client(s) and user in its workspace; a message when that failed. */
export async function setUpSandbox(world: World): Promise<string | null> {
	const { scenario, ctx, suffix, today, workspace } = world;
	if (!today || !workspace) return 'The scenario has no workspace to set up (openWorkspace runs first).';
	const redirectUri = `${ctx.explorerOrigin.replace(/\/+$/, '')}/callback`;
	const created: string[] = [];
	for (const client of scenario.setup.clients) {
		const registered: Party = { clientId: `scenario-${client.role}-${suffix}`, clientSecret: randomSecret(), redirectUri };
		world.clientSecrets.push(registered.clientSecret!);
		const key = client.verificationKey ?? 'supergroup';
		const answer = await control(
			world,
			'/sandbox/clients',
			{
				client_id: registered.clientId,
				client_secret: registered.clientSecret,
				name: `Scenario ${scenario.id} (${client.role})`,
				redirect_uris: [redirectUri],
				countries: [SCENARIO_COUNTRY],
				verification_key: key
			},
			'link',
			'sandbox setup: create a client'
		);
		const problem = controlProblem(answer, `create the client ${registered.clientId}`);
		if (problem) return problem;
		world.parties[client.role] = registered;
		created.push(`${registered.clientId}${key === 'group' ? ' (me.json key `group`)' : ''}`);
	}

	const user = { login: `scenario-${suffix}@example.com`, password: randomSecret() };
	const verifications = scenario.setup.user.verifications.map((v) => ({ supergroup: v.supergroup, expires_on: addDays(today, v.expiresInDays) }));
	const answer = await control(
		world,
		'/sandbox/users',
		{ ...user, verifications, deletion_requested: scenario.setup.user.deletionRequested ?? false },
		'link',
		'sandbox setup: create a user'
	);
	const problem = controlProblem(answer, `create the user ${user.login}`);
	if (problem) return problem;
	world.user = user;

	const verified = verifications.map((v) => `${v.supergroup} until ${v.expires_on}`).join(', ') || 'no verification';
	const deletion = scenario.setup.user.deletionRequested ? ', who has asked for account deletion' : '';
	emit(world, {
		kind: 'setup',
		text: `In workspace ${workspace.id}, made for this run and removed afterwards, today is ${today}. Created client ${created.join(' and ')} (redirect URI ${redirectUri}) and user ${user.login} (${verified})${deletion}.`
	});
	return null;
}

export function useCustomClient(world: World): string | null {
	const client = world.ctx.client;
	if (!client) return 'No client given for the custom target: pass its client ID, secret and registered redirect URI.';
	world.parties.main = { clientId: client.clientId, clientSecret: client.clientSecret, redirectUri: client.redirectUri };
	if (client.clientSecret) world.clientSecrets.push(client.clientSecret);
	const token = world.ctx.supplied?.token;
	if (world.scenario.custom === 'token' && token) {
		world.token = token;
		world.accessTokens.push(token);
		emit(world, { kind: 'stand-in', text: 'The access token supplied on the command line stands in for signing in and exchanging the code.' });
	}
	return null;
}
