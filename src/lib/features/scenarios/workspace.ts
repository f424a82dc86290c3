/**
 * Each scenario run on the sandbox happens in a throwaway workspace of its own (docs/workspaces.md): created empty
 * before setup, every later control call carrying its key, removed afterwards whatever happened. So a scenario's
 * clock moves, clients and user never touch the default workspace or another run's.
 */
import { control, controlProblem, stringOr } from './control-api';
import type { World } from './world';

/** Creates the run's workspace (with the admin token, if any: creating one administers the sandbox); a message when that failed. */
export async function openWorkspace(world: World): Promise<string | null> {
	const answer = await control(world, '/sandbox/workspaces', { fixtures: 'empty', name: `Scenario ${world.scenario.id}` }, 'link', 'sandbox setup: create a workspace');
	const problem = controlProblem(answer, 'create a workspace for the scenario', 201);
	if (problem) return problem;
	const id = stringOr(answer.body['id']);
	const key = stringOr(answer.body['key']);
	const today = stringOr(answer.body['today']);
	if (!id || !key || !today) return 'The sandbox control API created a workspace but did not answer its `id`, `key` and `today`.';
	// The key opens the workspace: masked wherever it appears, and named as a workspace key.
	world.sandboxKeys.push(key);
	world.workspace = { id, key };
	world.today = today;
	world.sandboxNow = stringOr(answer.body['now']) ?? null;
	return null;
}

/** Removes the run's workspace, if it made one; a message when that failed. Never throws. */
export async function removeWorkspace(world: World): Promise<string | null> {
	const workspace = world.workspace;
	if (!workspace) return null;
	try {
		const answer = await control(world, `/sandbox/workspaces/${encodeURIComponent(workspace.id)}`, null, 'link', 'sandbox: remove the workspace', 'DELETE');
		return controlProblem(answer, `remove the scenario's workspace ${workspace.id}`);
	} catch (error) {
		return `The scenario's workspace ${workspace.id} could not be removed: ${error instanceof Error ? error.message : String(error)}`;
	}
}
