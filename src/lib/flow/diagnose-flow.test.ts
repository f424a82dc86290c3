import { describe, expect, it } from 'vitest';
import { AUTHORISATION_ERRORS } from '$lib/protocol';
import { diagnoseFlow } from './diagnose-flow';
import { exchange, flow } from './test-helpers';
import { expectLinear } from './testing/expect-linear';
import { sharedCodeFlow } from './testing/shared-code-flow';

describe('diagnoseFlow of thousands of exchanges of one code', () => {
	it('annotates every exchange and grows linearly with them', () => {
		const flows = new Map([1000, 4000].map((n) => [n, sharedCodeFlow(n)]));
		expect(diagnoseFlow(flows.get(1000)!).annotations.exchanges).toHaveLength(1001);
		expectLinear((n) => diagnoseFlow(flows.get(n)!), 1000);
	});
});

describe('diagnoseFlow of the pages the service shows', () => {
	const row = AUTHORISATION_ERRORS[0];
	const page = { status: 400, body: `<main><h1>Sign-in problem</h1><p>${row.message}</p></main>` };

	it("annotates a sign-in page's and a link's 7.1 error itself, as on every channel; never the app's page", () => {
		const signIn = flow({
			exchanges: [
				exchange('link', { url: 'https://auth.example.com/sso/student?client_id=shop' }, { status: 303, headers: { Location: '/flow/f1' } }),
				exchange('sign-in', { method: 'POST', url: 'https://auth.example.com/flow/f1/login' }, page)
			]
		});
		expect(diagnoseFlow(signIn).annotations.exchanges).toEqual([null, expect.objectContaining({ outcome: 'error', rowId: row.id })]);
		const atLink = flow({ exchanges: [exchange('link', { url: 'https://auth.example.com/sso/student?client_id=shop' }, page)] });
		expect(diagnoseFlow(atLink).annotations.exchanges[0]).toMatchObject({ outcome: 'error', rowId: row.id });
		const echoed = flow({ exchanges: [exchange('arrival', { url: 'https://shop.example.com/cb?code=c' }, page)] });
		expect(diagnoseFlow(echoed).annotations.exchanges).toEqual([null]);
	});
});
