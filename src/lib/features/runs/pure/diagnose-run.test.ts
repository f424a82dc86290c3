import { describe, expect, it } from 'vitest';
import { diagnoseRun } from './diagnose-run';
import { redactRun } from './redact/redact';
import { run } from './test-helpers';

const LINK = `https://auth.example.com/sso/student?response_type=code&client_id=shop&redirect_uri=${encodeURIComponent('https://shop.example.com/cb')}`;

describe('diagnoseRun', () => {
	it('tells the engine the secret redaction found in the link by its value', () => {
		const r = redactRun(run({ link: `${LINK}&note=s3cret-value-1` }), { clientSecrets: ['s3cret-value-1'] });
		expect(diagnoseRun(r).flags.map((f) => f.id)).toContain('client-secret-in-link');
	});

	it('does not, when the secret was only elsewhere', () => {
		const r = redactRun(run({ link: LINK }), { clientSecrets: ['s3cret-value-1'] });
		expect(diagnoseRun(r).flags.map((f) => f.id)).not.toContain('client-secret-in-link');
	});
});
