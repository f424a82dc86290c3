/**
 * Step names as saved runs and their HAR exports stored them before 2026-11, when `authorise` named two steps: a
 * sandbox sign-in page (a run saved from the live view, a scenario's headless decision) and the browser's arrival at
 * the app (a browser's HAR). The run store and the HAR import read stored steps through here.
 */
import { z } from 'zod';
import { STEP_IDS, type RecordedExchange, type StepId } from '$lib/flow/exchange';
import type { RunSource } from './run';

const LEGACY = 'authorise';

/** A step as stored: today's names, or the old one. */
export const StoredStepSchema = z.enum([...STEP_IDS, LEGACY]);
export type StoredStep = z.infer<typeof StoredStepSchema>;

/**
 * Today's name of a stored step. The old one was a sign-in page when the sandbox's own record made it (the live
 * view's log, a scenario), and an arrival when a browser's HAR did (imported, or added to any run as evidence).
 */
export function currentStep(step: StoredStep, source: RunSource, evidenceSource?: string): StepId {
	if (step !== LEGACY) return step;
	return (source === 'live' || source === 'scenario') && evidenceSource !== 'har' ? 'sign-in' : 'arrival';
}

type LegacyExchange = { step: typeof LEGACY; evidence?: { source?: string } };
const isLegacy = (stored: unknown): stored is LegacyExchange => typeof stored === 'object' && stored !== null && 'step' in stored && stored.step === LEGACY;

const KnownStep = z.object({ step: z.enum(STEP_IDS) });

/**
 * A stored exchange of a run from `source`: its step read by today's names, and checked. Its other fields are taken
 * as stored, in their order: the store wrote them from a `RecordedExchange`, and only the names changed since.
 */
export function storedExchangeSchema(source: RunSource) {
	return z.preprocess(
		(stored) => (isLegacy(stored) ? { ...stored, step: currentStep(stored.step, source, stored.evidence?.source) } : stored),
		z.custom<RecordedExchange>((exchange) => KnownStep.safeParse(exchange).success, { message: `an exchange whose step is one of ${STEP_IDS.join(', ')}` })
	);
}
