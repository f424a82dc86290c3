import { describe, expect, it } from 'vitest';
import { blockedReason, cachingResolver, checkOutboundUrl, pinnedLookup } from './ssrf';
import { testConfig } from '../test-config';
import { fakeDns } from './test-dns';

/** A shared deployment: only the listed hosts. */
const config = testConfig({ EXPLORER_ALLOWED_HOSTS: 'api.example.com,*.example.net,127.0.0.1,[::1],[::ffff:7f00:1]', HOST: '0.0.0.0' });
const permissive = testConfig({ EXPLORER_ALLOWED_HOSTS: 'api.example.com,127.0.0.1', EXPLORER_ALLOW_PRIVATE_TARGETS: 'on' });

describe('blockedReason', () => {
	it.each([
		['127.0.0.1', 'loopback'],
		['10.1.2.3', 'private'],
		['172.16.0.1', 'private'],
		['172.31.255.255', 'private'],
		['192.168.1.1', 'private'],
		['169.254.169.254', 'link-local'],
		['100.64.0.1', 'carrier-grade NAT'],
		['0.0.0.0', 'unspecified'],
		['224.0.0.1', 'multicast'],
		['255.255.255.255', 'broadcast'],
		['::1', 'loopback'],
		['::', 'unspecified'],
		['::ffff:127.0.0.1', 'IPv4-mapped'],
		['::ffff:8.8.8.8', 'IPv4-mapped'],
		['fe80::1', 'link-local'],
		['fd00::1', 'unique-local'],
		['fc00::1', 'unique-local'],
		['ff02::1', 'multicast'],
		['64:ff9b::a00:1', 'NAT64'],
		['64:ff9b:1::a00:1', 'NAT64'],
		['198.18.0.1', 'benchmarking'],
		['198.19.255.255', 'benchmarking'],
		['::7f00:1', 'IPv4-compatible'],
		['::a00:1', 'IPv4-compatible'],
		['::ffff:0:7f00:1', 'IPv4-translated'],
		['2002:7f00:1::', '6to4'],
		['100::1', 'discard-only']
	])('refuses %s (%s)', (address, name) => {
		expect(blockedReason(address)).toContain(name);
	});

	it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '198.20.0.1', '2606:4700::1111', '2001:4860:4860::8888'])('lets the public address %s through', (address) => {
		expect(blockedReason(address)).toBeNull();
	});
});

describe('checkOutboundUrl', () => {
	it('refuses a host that is not allowed without asking DNS', async () => {
		const dns = fakeDns({ 'other.test': ['93.184.216.34'] });
		const result = await checkOutboundUrl('https://other.test/oauth/token', config, dns.resolve);
		expect(result).toEqual({ ok: false, kind: 'refused', message: expect.stringContaining('other.test is not an allowed target') });
		expect(dns.asked).toEqual([]);
	});

	it("on one person's machine, allows any https host on public addresses and refuses it on internal ones, private targets on or off", async () => {
		const dns = fakeDns({ 'sso.customer.test': ['93.184.216.34'], 'inside.customer.test': ['93.184.216.34', '10.0.0.5'] });
		for (const local of [testConfig(), testConfig({ EXPLORER_ALLOW_PRIVATE_TARGETS: 'on' })]) {
			expect(await checkOutboundUrl('https://sso.customer.test/oauth/token', local, dns.resolve)).toMatchObject({ ok: true, address: '93.184.216.34' });
			expect(await checkOutboundUrl('https://inside.customer.test/oauth/token', local, dns.resolve)).toEqual({
				ok: false,
				kind: 'refused',
				message: expect.stringContaining('10.0.0.5, a private address')
			});
			expect(await checkOutboundUrl('https://127.0.0.1:9/', local, dns.resolve)).toMatchObject({ ok: false, kind: 'refused' });
			expect(await checkOutboundUrl('http://sso.customer.test/', local, dns.resolve)).toMatchObject({ ok: false, kind: 'refused' });
		}
	});

	it('allows an allowed host that resolves to public addresses, returning all of them', async () => {
		const dns = fakeDns({ 'api.example.com': ['93.184.216.34', '2606:2800::1'] });
		const result = await checkOutboundUrl('https://api.example.com/api/v3/me.json', config, dns.resolve);
		expect(result).toEqual({
			ok: true,
			address: '93.184.216.34',
			addresses: [
				{ address: '93.184.216.34', family: 4 },
				{ address: '2606:2800::1', family: 6 }
			]
		});
	});

	it('refuses an allowed host when any of its addresses is internal (DNS pointing inside)', async () => {
		const dns = fakeDns({ 'api.example.com': ['93.184.216.34', '10.0.0.7'], 'x.example.net': ['::ffff:169.254.169.254'] });
		expect(await checkOutboundUrl('https://api.example.com/', config, dns.resolve)).toEqual({
			ok: false,
			kind: 'refused',
			message: expect.stringMatching(/resolves to 10\.0\.0\.7, a private address .*EXPLORER_ALLOW_PRIVATE_TARGETS=on/)
		});
		expect((await checkOutboundUrl('https://x.example.net/', config, dns.resolve)).ok).toBe(false);
	});

	it.each([
		'http://127.0.0.1/',
		'http://2130706433/',
		'http://0x7f000001/',
		'http://0177.0.0.1/',
		'http://127.1/',
		'http://[::1]/',
		'http://[0:0:0:0:0:0:0:1]/',
		'http://[::ffff:127.0.0.1]/'
	])('refuses loopback written as %s, even when the operator listed it', async (url) => {
		const dns = fakeDns({});
		const result = await checkOutboundUrl(url, config, dns.resolve);
		expect(result).toMatchObject({ ok: false, kind: 'refused' });
		expect(dns.asked).toEqual([]);
	});

	it('the WHATWG parser normalises decimal and hex IPv4 hostnames to dotted decimal', () => {
		expect(new URL('http://2130706433/').hostname).toBe('127.0.0.1');
		expect(new URL('http://0x7f000001/').hostname).toBe('127.0.0.1');
		expect(new URL('http://0177.0.0.1/').hostname).toBe('127.0.0.1');
		expect(new URL('http://[0:0:0:0:0:0:0:1]/').hostname).toBe('[::1]');
	});

	it('with EXPLORER_ALLOW_PRIVATE_TARGETS=on, allowed hosts may be internal, other hosts still may not', async () => {
		const dns = fakeDns({ 'api.example.com': ['10.0.0.7'] });
		expect(await checkOutboundUrl('http://api.example.com/', permissive, dns.resolve)).toMatchObject({ ok: true, address: '10.0.0.7' });
		expect(await checkOutboundUrl('http://2130706433:8080/', permissive, dns.resolve)).toMatchObject({ ok: true, address: '127.0.0.1' });
		expect(await checkOutboundUrl('http://10.0.0.8/', permissive, dns.resolve)).toMatchObject({ ok: false, kind: 'refused' });
	});

	it('the sandbox origin may be loopback without any setting', async () => {
		const dns = fakeDns({ localhost: ['127.0.0.1'] });
		expect(await checkOutboundUrl('http://localhost:3002/oauth/token', config, dns.resolve)).toMatchObject({ ok: true, address: '127.0.0.1' });
		expect(await checkOutboundUrl('http://localhost:3004/', config, dns.resolve)).toMatchObject({ ok: false, kind: 'refused' });
	});

	it('a name that does not resolve is unreachable, not refused', async () => {
		const result = await checkOutboundUrl('https://missing.example.net/', config, fakeDns({}).resolve);
		expect(result).toEqual({ ok: false, kind: 'unreachable', message: expect.stringContaining('ENOTFOUND') });
	});

	it('refuses non-http schemes, credentials and non-URLs', async () => {
		const dns = fakeDns({});
		expect(await checkOutboundUrl('file:///etc/passwd', config, dns.resolve)).toMatchObject({ ok: false, kind: 'refused' });
		expect(await checkOutboundUrl('https://u:p@api.example.com/', config, dns.resolve)).toMatchObject({ ok: false, kind: 'refused' });
		expect(await checkOutboundUrl('not a url', config, dns.resolve)).toMatchObject({ ok: false, kind: 'refused' });
	});
});

describe('pinnedLookup', () => {
	it('answers with the checked addresses whatever name is asked', () => {
		const lookup = pinnedLookup([
			{ address: '93.184.216.34', family: 4 },
			{ address: '2606:2800::1', family: 6 }
		]);
		const answers: unknown[] = [];
		lookup('rebound.example', {}, (_e, address, family) => answers.push([address, family]));
		lookup('rebound.example', { all: true }, (_e, addresses) => answers.push(addresses));
		expect(answers).toEqual([
			['93.184.216.34', 4],
			[
				{ address: '93.184.216.34', family: 4 },
				{ address: '2606:2800::1', family: 6 }
			]
		]);
	});
});

describe('cachingResolver', () => {
	it('reuses an answer for its time to live, then asks again; a failure is never kept', async () => {
		let clock = 0;
		let answer = '93.184.216.34';
		const asked: string[] = [];
		const resolve = cachingResolver(
			async (hostname) => {
				asked.push(hostname);
				if (hostname === 'missing.example') throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
				return [{ address: answer, family: 4 }];
			},
			1000,
			{ now: () => clock }
		);
		expect(await resolve('api.example.com')).toEqual([{ address: '93.184.216.34', family: 4 }]);
		answer = '127.0.0.1';
		clock = 999;
		expect(await resolve('api.example.com')).toEqual([{ address: '93.184.216.34', family: 4 }]);
		clock = 1000;
		expect(await resolve('api.example.com')).toEqual([{ address: '127.0.0.1', family: 4 }]);
		await expect(resolve('missing.example')).rejects.toThrow('not found');
		await expect(resolve('missing.example')).rejects.toThrow('not found');
		expect(asked).toEqual(['api.example.com', 'api.example.com', 'missing.example', 'missing.example']);
	});

	it('a cached answer is still checked: a name that rebinds to loopback is refused once the cache asks again', async () => {
		let clock = 0;
		let answer = '93.184.216.34';
		const resolve = cachingResolver(async () => [{ address: answer, family: 4 }], 1000, { now: () => clock });
		expect(await checkOutboundUrl('https://api.example.com/', config, resolve)).toMatchObject({ ok: true, address: '93.184.216.34' });
		answer = '127.0.0.1';
		clock = 5000;
		expect(await checkOutboundUrl('https://api.example.com/', config, resolve)).toMatchObject({ ok: false, kind: 'refused' });
	});

	it('keeps at most `maxEntries` names, dropping the oldest', async () => {
		const asked: string[] = [];
		const resolve = cachingResolver(async (hostname) => (asked.push(hostname), [{ address: '93.184.216.34', family: 4 }]), 60_000, { maxEntries: 2 });
		for (const name of ['a.example', 'b.example', 'c.example', 'b.example', 'a.example']) await resolve(name);
		expect(asked).toEqual(['a.example', 'b.example', 'c.example', 'a.example']);
	});
});
