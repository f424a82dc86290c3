/** Each step kind to the module that performs it, and each step as one line for reasons and reports. */
import { CODE_VALIDITY } from '$lib/protocol';
import type { Step } from '$lib/features/scenarios/pure/library';
import { authoriseHeadless, authoriseText, readLinkPage, standInForBrowser } from './authorise';
import { exchangeCode, meText, readMe, tokenText } from './flow-calls';
import { changeVerification, moveClock } from './sandbox-steps';
import type { Outcome, World } from './world';

export function perform(world: World, step: Step, isLast: boolean, isFirst: boolean): Promise<Outcome> {
	switch (step.kind) {
		case 'authorise':
			if (world.ctx.control) return authoriseHeadless(world, step);
			return isLast ? readLinkPage(world, step) : Promise.resolve(standInForBrowser(world, step, isFirst));
		case 'token':
			return exchangeCode(world, step);
		case 'me':
			return readMe(world, step);
		case 'clock':
			return moveClock(world, step);
		case 'verification':
			return changeVerification(world, step);
	}
}

/** A step as one line, for reasons and reports. */
export function stepText(step: Step): string {
	switch (step.kind) {
		case 'authorise':
			return authoriseText(step);
		case 'token':
			return tokenText(step);
		case 'me':
			return meText(step);
		case 'clock':
			return step.advance === 'past-code-validity' ? `Move the clock past the code's ${CODE_VALIDITY}` : "Move the clock past the token's expires_in";
		case 'verification':
			return `Change the verification to end in ${step.expiresInDays} days`;
	}
}
