import { describe, expect, it } from 'vitest';
import { checkLink, MAX_CHECKED_LINK } from './link-check';

const SECRET = 'sessions-secret-value-1234';
const DEMO = 'demo-secret-change-me';
const secrets = [
	{ value: SECRET, whose: 'your client secret' },
	{ value: DEMO, whose: "the demo client's secret" }
];
const base = 'http://localhost:3001/sso/student?response_type=code&client_id=demo-client&country=uk';

function findings(link: string) {
	const result = checkLink(link, secrets);
	if (!result.ok) throw new Error(result.message);
	return result.findings;
}

describe('checkLink', () => {
	it('runs the walk’s linter: an unencoded redirect URI and a supergroup outside the four', () => {
		const ids = findings('http://localhost:3001/sso/students?response_type=code&client_id=demo-client&redirect_uri=https://app.example/cb?next=/home&country=uk').map((f) => f.id);
		expect(ids).toContain('redirect-uri-not-encoded');
		expect(ids).toContain('unknown-supergroup');
	});

	it('names whose secret is in which parameter, under any name, never its value', () => {
		const found = findings(`${base}&redirect_uri=${encodeURIComponent('https://app.example/cb')}&debug=${SECRET}&x=${encodeURIComponent(DEMO)}`);
		const messages = found.filter((f) => f.id.startsWith('client-secret-value')).map((f) => f.message);
		expect(messages).toEqual([
			'The value of your client secret appears in the `debug` parameter.',
			"The value of the demo client's secret appears in the `x` parameter."
		]);
		const everything = JSON.stringify(checkLink(`${base}&debug=${SECRET}&x=${encodeURIComponent(DEMO)}`, secrets));
		expect(everything).toContain('debug=••••••');
		expect(everything).not.toContain(SECRET);
		expect(everything).not.toContain(DEMO);
	});

	it('hides a secret that another finding would quote', () => {
		const found = findings(`http://localhost:3001/sso/${SECRET}?response_type=code&client_id=demo-client&country=uk`);
		expect(found.map((f) => f.id)).toContain('unknown-supergroup');
		expect(JSON.stringify(found)).not.toContain(SECRET);
	});

	it('refuses an overlong link with a message', () => {
		expect(checkLink(`${base}&x=${'a'.repeat(MAX_CHECKED_LINK)}`, secrets)).toEqual({ ok: false, message: expect.stringContaining('at most') });
	});

	it('checks a link to the sandbox against its registration when given one', () => {
		const registration = { authUrl: 'http://localhost:3001', workspace: 'Default', clients: [{ clientId: 'demo-client', redirectUris: ['https://app.example/cb'], countries: ['uk'] }] };
		const link = `${base}&redirect_uri=${encodeURIComponent('https://app.example/cb')}`;
		const result = checkLink(link.replace('demo-client', 'nobody'), secrets, registration);
		expect(result.ok && result.findings.map((f) => f.id)).toEqual(['client-not-registered']);
		expect(checkLink(link.replace('demo-client', 'nobody'), secrets)).toEqual({ ok: true, findings: [], shown: expect.any(String) });
	});
});
