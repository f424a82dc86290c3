/**
 * For the fuzz tests (`*.fuzz.test.ts`): their shared settings and text. A fixed seed in `npm test`; `npm run fuzz`
 * sets FUZZ_RUNS for a longer run.
 */
import fc from 'fast-check';

export const FUZZ_SETTINGS = { seed: 42, numRuns: Number(process.env.FUZZ_RUNS ?? 200) } as const;

/** One UTF-16 code unit of the surrogate range: half of a pair, which no UTF-8 text can carry. */
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));

/**
 * Any text a JSON body or a paste can hold: any code point, and now and then half of a surrogate pair, which
 * fast-check's `binary` unit never gives on its own.
 */
export function anyTextUpTo(maxLength: number): fc.Arbitrary<string> {
	const unit = fc.oneof({ weight: 19, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) }, { weight: 1, arbitrary: loneSurrogate });
	return fc.string({ unit, maxLength });
}
