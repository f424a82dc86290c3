/** The scaling tests' measure (issue 24): work that grows with its input no faster than linearly. */
import { expect } from 'vitest';

/**
 * Expects `work(n)` to grow no faster than linearly: its time for 4n stays under 8 times its time for n (a
 * quadratic cost gives 16 times), plus a few milliseconds for the timer's grain. The best of three runs of each, so
 * a pause of the machine (other processes, a collection) is not counted.
 */
export function expectLinear(work: (n: number) => unknown, n: number): void {
	const best = (size: number) => {
		let fastest = Infinity;
		for (let i = 0; i < 3; i++) {
			const started = performance.now();
			work(size);
			fastest = Math.min(fastest, performance.now() - started);
		}
		return fastest;
	};
	// Once each first: the code compiled for the sizes it runs at.
	work(n);
	work(4 * n);
	// Quadratic work takes 16 times as long at four times the size, every time; a busy machine (CI's two cores, a
	// collection) can stretch one measurement, so up to three rounds are taken, and one linear round suffices.
	const rounds: string[] = [];
	for (let round = 0; round < 3; round++) {
		const small = best(n);
		const large = best(4 * n);
		if (large < 8 * small + 20) return;
		rounds.push(`${n} took ${small.toFixed(1)} ms, ${4 * n} took ${large.toFixed(1)} ms`);
	}
	expect.fail(`not linear in three rounds: ${rounds.join('; ')}`);
}
