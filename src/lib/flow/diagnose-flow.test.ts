import { describe, expect, it } from 'vitest';
import { diagnoseFlow } from './diagnose-flow';
import { expectLinear } from './testing/expect-linear';
import { sharedCodeFlow } from './testing/shared-code-flow';

describe('diagnoseFlow of thousands of exchanges of one code', () => {
	it('annotates every exchange and grows linearly with them', () => {
		const flows = new Map([1000, 4000].map((n) => [n, sharedCodeFlow(n)]));
		expect(diagnoseFlow(flows.get(1000)!).annotations.exchanges).toHaveLength(1001);
		expectLinear((n) => diagnoseFlow(flows.get(n)!), 1000);
	});
});
