/**
 * The steps that change the sandbox mid-scenario through its control API: the clock, and the user's verification.
 * Both act on the run's own workspace (its key goes with every call), so no other workspace's clock moves.
 */
import { CODE_VALIDITY, LIMITS } from '$lib/protocol';
import { addDays } from '$lib/dates';
import type { Step } from '$lib/features/scenarios/pure/library';
import { control, controlProblem, stringOr } from './control-api';
import { emit, type Outcome, type World } from './world';

export async function moveClock(world: World, step: Extract<Step, { kind: 'clock' }>): Promise<Outcome> {
	const past = step.advance === 'past-code-validity' ? LIMITS.codeTtlSeconds : (world.expiresIn ?? LIMITS.accessTokenExpiresIn);
	const seconds = past + 60;
	const answer = await control(world, '/sandbox/clock', { advance_seconds: seconds }, 'link', 'sandbox clock');
	const problem = controlProblem(answer, 'move the clock');
	if (problem) return { kind: 'done', observed: null, succeeded: false, problem };
	world.sandboxNow = stringOr(answer.body['now']) ?? world.sandboxNow;
	world.today = stringOr(answer.body['today']) ?? world.today;
	const what = step.advance === 'past-code-validity' ? `the code's ${CODE_VALIDITY}` : `the token's expires_in (${past} s)`;
	emit(world, { kind: 'clock', text: `The workspace's clock moves forward ${seconds} s, past ${what}: it is now ${world.sandboxNow}.` });
	return { kind: 'done', observed: null, succeeded: true };
}

export async function changeVerification(world: World, step: Extract<Step, { kind: 'verification' }>): Promise<Outcome> {
	const { user, today } = world;
	if (!user || !today) return { kind: 'done', observed: null, succeeded: false, problem: 'there is no scenario user to change' };
	const verifications = world.scenario.setup.user.verifications.map((v) => ({ supergroup: v.supergroup, expires_on: addDays(today, step.expiresInDays) }));
	const answer = await control(
		world,
		'/sandbox/users',
		{ ...user, verifications, deletion_requested: world.scenario.setup.user.deletionRequested ?? false },
		'link',
		'sandbox: change the verification'
	);
	const problem = controlProblem(answer, 'change the verification');
	if (problem) return { kind: 'done', observed: null, succeeded: false, problem };
	const listed = verifications.map((v) => `${v.supergroup} expires_on ${v.expires_on}`).join(', ');
	emit(world, { kind: 'verification', text: `The user's verification changes on the sandbox: ${listed} (today is ${today}).` });
	return { kind: 'done', observed: null, succeeded: true };
}
