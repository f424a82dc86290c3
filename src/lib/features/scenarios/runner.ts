/**
 * Walks a scenario with the explorer's own outbound `send`, so every step is a RecordedExchange exactly as a walk
 * records it, annotates each step the way a saved run is annotated (`annotateFlow`), and compares what came out with
 * what the tables say should. Never throws: anything unexpected is a failed result saying what happened.
 *
 * On the sandbox each run happens in a throwaway workspace of its own (workspace.ts), removed afterwards whether
 * the scenario passed, failed or threw: no scenario moves another workspace's clock or leaves anything behind.
 *
 * Against a deployment without the sandbox control API, a scenario that needs it (setup, clock) or a user's
 * browser uses a code or token supplied by the caller, or is skipped; it is never reported as passed.
 */
import type { Scenario } from '$lib/features/scenarios/pure/library';
import type { ScenarioResult, ScenarioStepResult } from '$lib/features/scenarios/pure/result';
import { judge } from './judge';
import { customSkip, setUpSandbox, useCustomClient } from './setup';
import { perform, stepText } from './steps';
import { openWorkspace, removeWorkspace } from './workspace';
import { newWorld, result, type Outcome, type ScenarioContext, type World } from './world';

export type { ScenarioContext } from './world';

export async function runScenario(
	scenario: Scenario,
	ctx: ScenarioContext,
	onStep?: (step: ScenarioStepResult) => void
): Promise<ScenarioResult> {
	const world = newWorld(scenario, ctx, onStep);
	let outcome: ScenarioResult;
	try {
		outcome = await walk(world);
	} catch (error) {
		outcome = result(world, false, null, `The scenario could not run: ${error instanceof Error ? error.message : String(error)}`);
	}
	const leftover = await removeWorkspace(world);
	return leftover ? withLeftover(outcome, leftover) : outcome;
}

/** A workspace left behind fails the run: the scenarios promise to leave no trace on the sandbox. */
function withLeftover(outcome: ScenarioResult, problem: string): ScenarioResult {
	const passed = outcome.passed === true ? false : outcome.passed;
	return { ...outcome, passed, reason: outcome.reason ? `${outcome.reason} ${problem}` : problem };
}

async function walk(world: World): Promise<ScenarioResult> {
	const { scenario, ctx } = world;
	if (!ctx.control) {
		const skip = customSkip(scenario, ctx);
		if (skip) return result(world, 'skipped', null, skip);
	}
	const setup = ctx.control ? ((await openWorkspace(world)) ?? (await setUpSandbox(world))) : useCustomClient(world);
	if (setup) return result(world, false, null, setup);

	const steps = ctx.control || scenario.custom !== 'token' ? scenario.steps : scenario.steps.filter((s) => s.kind === 'me');
	let last: Extract<Outcome, { kind: 'done' }> | null = null;
	for (const [i, step] of steps.entries()) {
		const isLast = i === steps.length - 1;
		const outcome = await perform(world, step, isLast, i === 0);
		if (outcome.kind === 'skip') return result(world, 'skipped', null, outcome.reason);
		last = outcome;
		if (!isLast && !outcome.succeeded) {
			return result(world, false, outcome.observed, `Stopped at "${stepText(step)}": ${outcome.problem ?? outcome.observed?.summary ?? 'it did not succeed'}.`);
		}
	}
	const verdict = judge(scenario.expected, last?.observed ?? null, last?.annotation);
	return result(world, verdict.passed, last?.observed ?? null, verdict.reason);
}
