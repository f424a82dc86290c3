import { describe, expect, it } from 'vitest';
import { testConfig } from '../../platform/test-config';
import { fakeDns } from '../../platform/outbound/test-dns';
import { checkAppUrl, originAliases, originGuard } from './origins';

const dns = fakeDns({ 'shop.example.com': ['93.184.216.34'], 'rebind.example.com': ['10.0.0.5'], 'intranet.corp': ['192.168.1.20'] });

describe('which origins the app check drives', () => {
	it('allows an app on this machine when the explorer is bound to loopback (npm start locally)', async () => {
		const local = testConfig();
		for (const url of ['http://localhost:4000/login', 'http://127.0.0.1:4000/', 'http://[::1]:4000/']) {
			expect(await checkAppUrl(url, local, dns.resolve)).toEqual({ ok: true });
		}
	});

	it('keeps a shared deployment to the operator\'s list, with private addresses only when allowed', async () => {
		const shared = testConfig({ HOST: '0.0.0.0' });
		const refused = await checkAppUrl('http://localhost:4000/login', shared, dns.resolve);
		expect(refused).toEqual({ ok: false, message: expect.stringMatching(/^The app check does not drive http:\/\/localhost:4000: localhost:4000 is not an allowed target\..*EXPLORER_ALLOWED_HOSTS/) });
		const listed = testConfig({ HOST: '0.0.0.0', EXPLORER_ALLOWED_HOSTS: 'intranet.corp' });
		expect(await checkAppUrl('http://intranet.corp/login', listed, dns.resolve)).toEqual({ ok: false, message: expect.stringMatching(/192\.168\.1\.20, a private address.*EXPLORER_ALLOW_PRIVATE_TARGETS=on/) });
		const privateOn = testConfig({ HOST: '0.0.0.0', EXPLORER_ALLOWED_HOSTS: 'intranet.corp', EXPLORER_ALLOW_PRIVATE_TARGETS: 'on' });
		expect(await checkAppUrl('http://intranet.corp/login', privateOn, dns.resolve)).toEqual({ ok: true, address: '192.168.1.20' });
	});

	it('allows public https hosts on a loopback-bound explorer, never one resolving to an internal address', async () => {
		const local = testConfig();
		const shop = await checkAppUrl('https://shop.example.com/login', local, dns.resolve);
		expect(shop).toEqual({ ok: true, address: '93.184.216.34' });
		// The proxy connects to the address the check saw, so DNS cannot rebind the name afterwards; an origin the
		// caller already checked is not looked up again.
		let lookups = 0;
		const counting = async (host: string) => (lookups++, dns.resolve(host));
		expect(await originGuard(local, [], counting, { 'https://shop.example.com': shop })('https://shop.example.com/cart')).toBe(shop);
		expect(lookups).toBe(0);
		const rebind = await checkAppUrl('https://rebind.example.com/login', local, dns.resolve);
		expect(rebind.ok).toBe(false);
		expect(!rebind.ok && rebind.message).toMatch(/10\.0\.0\.5, a private address.*An app on this machine \(localhost\) is allowed as it is\./);
		expect((await checkAppUrl('http://shop.example.com/login', local, dns.resolve)).ok).toBe(false);
	});

	it('refuses the sandbox itself and other schemes', async () => {
		const local = testConfig();
		expect(await checkAppUrl('http://localhost:3001/sso/student', local, dns.resolve)).toEqual({ ok: false, message: expect.stringMatching(/is the sandbox itself/) });
		expect(await checkAppUrl('file:///etc/passwd', local, dns.resolve)).toEqual({ ok: false, message: 'The app must be on http or https, not file.' });
	});

	it('guards every request of the browser: the sandbox under each loopback name, allowed apps, nothing else', async () => {
		const shared = testConfig({ HOST: '0.0.0.0', EXPLORER_ALLOWED_HOSTS: 'shop.example.com' });
		const guard = originGuard(shared, originAliases('http://localhost:3001'), dns.resolve);
		expect(originAliases('http://localhost:3001')).toEqual(['http://localhost:3001', 'http://127.0.0.1:3001', 'http://[::1]:3001']);
		expect(await guard('http://127.0.0.1:3001/flow/x')).toEqual({ ok: true });
		expect((await guard('https://shop.example.com/profile')).ok).toBe(true);
		expect((await guard('http://169.254.169.254/latest/meta-data')).ok).toBe(false);
		expect(await guard('data:text/plain,hi')).toEqual({ ok: true });
	});
});
