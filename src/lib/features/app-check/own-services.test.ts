import { hostname, networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../../platform/test-config';
import { fakeDns } from '../../platform/outbound/test-dns';
import { checkAppUrl } from './origins';

/** An address of one of this machine's interfaces other than loopback, when it has one. */
const lanAddress = Object.values(networkInterfaces())
	.flatMap((list) => list ?? [])
	.find((i) => !i.internal && i.family === 'IPv4')?.address;

const dns = fakeDns({ 'intranet.corp': ['127.0.0.1'], 'app.corp': ['192.168.1.20'], ...(lanAddress ? { 'lan.corp': [lanAddress] } : {}) });

describe('the app check never drives this deployment\'s own services as the app', () => {
	it('refuses the sandbox and the explorer under every name and address of this machine, on their ports', async () => {
		const local = testConfig();
		const starts = [
			['http://127.0.0.1:3001/sso/student', /is the sandbox itself \(its authorisation host\), http:\/\/localhost:3001/],
			['http://[::1]:3002/sandbox/state', /is the sandbox itself \(its accounts host\)/],
			['http://0.0.0.0:3001/', /is the sandbox itself/],
			['http://127.8.9.10:3002/', /is the sandbox itself/],
			['http://[::ffff:127.0.0.1]:3001/', /is the sandbox itself/],
			['http://[::]:3001/', /is the sandbox itself/],
			['http://localhost.:3001/', /is the sandbox itself/],
			['http://sub.localhost:3002/', /is the sandbox itself/],
			[`http://${hostname()}:3001/`, /is the sandbox itself/],
			['http://127.0.0.1:3000/live/demo-client', /is the explorer itself, http:\/\/localhost:3000/],
			['https://localhost:3000/', /is the explorer itself/]
		] as const;
		for (const [url, message] of starts) {
			const check = await checkAppUrl(url, local, dns.resolve);
			expect(check, url).toEqual({ ok: false, message: expect.stringMatching(message) });
		}
		// An app on another port of this machine is still the usual thing to check.
		expect(await checkAppUrl('http://127.0.0.1:4000/login', local, dns.resolve)).toEqual({ ok: true });
	});

	it('compares after resolution: a listed name that resolves to this machine is refused on the services\' ports', async () => {
		const shared = testConfig({ HOST: '0.0.0.0', EXPLORER_ALLOWED_HOSTS: 'intranet.corp,app.corp,lan.corp', EXPLORER_ALLOW_PRIVATE_TARGETS: 'on' });
		expect(await checkAppUrl('http://intranet.corp:3002/', shared, dns.resolve)).toEqual({ ok: false, message: expect.stringMatching(/^http:\/\/intranet\.corp:3002 is the sandbox itself \(its accounts host\)/) });
		expect(await checkAppUrl('http://intranet.corp:4000/', shared, dns.resolve)).toEqual({ ok: true, address: '127.0.0.1' });
		expect(await checkAppUrl('http://app.corp:3001/', shared, dns.resolve)).toEqual({ ok: true, address: '192.168.1.20' });
		// A name the operator gave this machine (ALLOWED_HOST_NAMES) is this machine, whatever DNS says.
		const named = testConfig({ HOST: '0.0.0.0', ALLOWED_HOST_NAMES: 'app.corp', EXPLORER_ALLOWED_HOSTS: 'app.corp', EXPLORER_ALLOW_PRIVATE_TARGETS: 'on' });
		expect(await checkAppUrl('http://app.corp:3001/', named, dns.resolve)).toEqual({ ok: false, message: expect.stringMatching(/is the sandbox itself/) });
		if (lanAddress) {
			expect((await checkAppUrl('http://lan.corp:3000/', shared, dns.resolve)).ok).toBe(false);
			expect((await checkAppUrl(`http://${lanAddress}:3001/`, shared, dns.resolve)).ok).toBe(false);
		}
	});

	it('knows the sandbox and the explorer where the configuration puts them', async () => {
		const moved = testConfig({ PORT: '5000', AUTH_PORT: '5001', ACCOUNTS_PORT: '5002', PUBLIC_ORIGIN: 'https://explorer.example.com' });
		expect((await checkAppUrl('http://127.0.0.1:5001/', moved, dns.resolve)).ok).toBe(false);
		expect((await checkAppUrl('http://127.0.0.1:5000/', moved, dns.resolve)).ok).toBe(false);
		expect(await checkAppUrl('https://explorer.example.com/live/x', moved, dns.resolve)).toEqual({ ok: false, message: expect.stringMatching(/is the explorer itself/) });
		expect(await checkAppUrl('http://127.0.0.1:3001/', moved, dns.resolve)).toEqual({ ok: true });
	});
});
