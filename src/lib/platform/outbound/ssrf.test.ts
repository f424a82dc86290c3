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

/**
 * One address in every entry of IANA's IPv4 and IPv6 special-purpose address registries, plus the multicast blocks,
 * the IPv6 space outside global unicast, and the forms that embed a private IPv4 address: each is refused, and by
 * the right name.
 */
const SPECIAL_PURPOSE: [address: string, entry: string, named: string][] = [
	['0.1.2.3', '0.0.0.0/8 this network', 'unspecified'],
	['0.0.0.0', '0.0.0.0/32 this host', 'unspecified'],
	['10.20.30.40', '10.0.0.0/8 private-use', 'private'],
	['100.127.255.254', '100.64.0.0/10 shared address space', 'carrier-grade NAT'],
	['127.8.9.10', '127.0.0.0/8 loopback', 'loopback'],
	['169.254.169.254', '169.254.0.0/16 link-local', 'link-local'],
	['172.20.0.1', '172.16.0.0/12 private-use', 'private'],
	['192.0.0.1', '192.0.0.0/24 IETF protocol assignments', 'reserved'],
	['192.0.0.2', '192.0.0.0/29 DS-Lite', 'reserved'],
	['192.0.0.8', '192.0.0.8/32 IPv4 dummy address', 'reserved'],
	['192.0.0.9', '192.0.0.9/32 PCP anycast', 'reserved'],
	['192.0.0.10', '192.0.0.10/32 TURN anycast', 'reserved'],
	['192.0.0.170', '192.0.0.170/32 NAT64/DNS64 discovery', 'reserved'],
	['192.0.0.171', '192.0.0.171/32 NAT64/DNS64 discovery', 'reserved'],
	['192.0.2.1', '192.0.2.0/24 documentation (TEST-NET-1)', 'documentation'],
	['192.31.196.1', '192.31.196.0/24 AS112-v4', 'AS112'],
	['192.52.193.1', '192.52.193.0/24 AMT', 'AMT'],
	['192.88.99.1', '192.88.99.0/24 deprecated 6to4 relay anycast', 'reserved'],
	['192.168.0.1', '192.168.0.0/16 private-use', 'private'],
	['192.175.48.1', '192.175.48.0/24 direct delegation AS112', 'AS112'],
	['198.19.0.1', '198.18.0.0/15 benchmarking', 'benchmarking'],
	['198.51.100.7', '198.51.100.0/24 documentation (TEST-NET-2)', 'documentation'],
	['203.0.113.9', '203.0.113.0/24 documentation (TEST-NET-3)', 'documentation'],
	['250.1.2.3', '240.0.0.0/4 reserved', 'reserved'],
	['255.255.255.255', '255.255.255.255/32 limited broadcast', 'broadcast'],
	['239.255.255.250', '224.0.0.0/4 multicast', 'multicast'],
	['::1', '::1/128 loopback', 'loopback'],
	['::', '::/128 unspecified', 'unspecified'],
	['::ffff:10.0.0.1', '::ffff:0:0/96 IPv4-mapped, private inside', 'IPv4-mapped'],
	['::ffff:a9fe:a9fe', '::ffff:0:0/96 IPv4-mapped, metadata inside, in hex', 'IPv4-mapped'],
	['0:0:0:0:0:ffff:7f00:1', '::ffff:0:0/96 IPv4-mapped, loopback inside, in full', 'IPv4-mapped'],
	['::ffff:8.8.8.8', '::ffff:0:0/96 IPv4-mapped, even a public IPv4 inside', 'IPv4-mapped'],
	['::10.0.0.1', '::/96 IPv4-compatible, private inside', 'IPv4-compatible'],
	['::169.254.169.254', '::/96 IPv4-compatible, metadata inside', 'IPv4-compatible'],
	['::8.8.8.8', '::/96 IPv4-compatible, even a public IPv4 inside', 'IPv4-compatible'],
	['::ffff:0:a00:1', '::ffff:0:0:0/96 IPv4-translated, private inside', 'IPv4-translated'],
	['64:ff9b::10.0.0.1', '64:ff9b::/96 NAT64, private inside', 'NAT64'],
	['64:ff9b::c0a8:101', '64:ff9b::/96 NAT64, 192.168.1.1 inside', 'NAT64'],
	['64:ff9b:1::a00:1', '64:ff9b:1::/48 local-use NAT64', 'NAT64'],
	['100::1', '100::/64 discard-only', 'discard-only'],
	['100:0:0:1::1', '100:0:0:1::/64 dummy IPv6 prefix', 'outside the IPv6 global unicast space'],
	['2001:1::1', '2001:1::1/128 PCP anycast', 'reserved'],
	['2001:1::2', '2001:1::2/128 TURN anycast', 'reserved'],
	['2001:1::3', '2001:1::3/128 DNS-SD service registration anycast', 'reserved'],
	['2001:1ff::1', '2001::/23 IETF protocol assignments', 'reserved'],
	['2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001::/32 Teredo', 'Teredo'],
	['2001::a00:1', '2001::/32 Teredo, private inside', 'Teredo'],
	['2001:2::1', '2001:2::/48 benchmarking', 'benchmarking'],
	['2001:3::1', '2001:3::/32 AMT', 'AMT'],
	['2001:4:112::1', '2001:4:112::/48 AS112-v6', 'AS112'],
	['2001:10::1', '2001:10::/28 deprecated ORCHID', 'ORCHID'],
	['2001:20::1', '2001:20::/28 ORCHIDv2', 'ORCHIDv2'],
	['2001:30::1', '2001:30::/28 drone remote ID tags', 'drone'],
	['2001:db8::1', '2001:db8::/32 documentation', 'documentation'],
	['2002:a00:1::1', '2002::/16 6to4, 10.0.0.1 inside', '6to4'],
	['2002:c0a8:101::1', '2002::/16 6to4, 192.168.1.1 inside', '6to4'],
	['2620:4f:8000::1', '2620:4f:8000::/48 direct delegation AS112', 'AS112'],
	['3fff::1', '3fff::/20 documentation', 'documentation'],
	['5f00::1', '5f00::/16 segment routing (SRv6) SIDs', 'segment routing'],
	['fd12:3456::1', 'fc00::/7 unique-local', 'unique-local'],
	['fe80::1', 'fe80::/10 link-local', 'link-local'],
	['fe80::1%eth0', 'fe80::/10 link-local, with a zone', 'link-local'],
	['fec0::1', 'fec0::/10 deprecated site-local', 'site-local'],
	['ff02::1', 'ff00::/8 multicast', 'multicast'],
	['4000::1', '4000::/3 unassigned', 'outside the IPv6 global unicast space'],
	['fe00::1', 'fe00::/9 unassigned', 'outside the IPv6 global unicast space']
];

/** Public unicast addresses, several just beside a special-purpose range, that must pass. */
const PUBLIC = ['93.184.216.34', '1.1.1.1', '192.0.1.1', '192.0.3.1', '198.51.99.1', '203.0.112.1', '223.255.254.1', '2001:200::1', '2001:4860:4860::8888', '2a00:1450:4001::1', '3ffe::1'];

describe('blockedReason against the IANA special-purpose registries', () => {
	it.each(SPECIAL_PURPOSE)('refuses %s (%s) as %s', (address, _entry, named) => {
		expect(blockedReason(address)).toContain(named);
	});

	it.each(PUBLIC)('lets the public address %s through', (address) => {
		expect(blockedReason(address)).toBeNull();
	});

	it('refuses what is not an IP address rather than classifying it', () => {
		expect(blockedReason('localhost')).toBe('not an IP address');
		expect(blockedReason('0x7f.1')).toBe('not an IP address');
	});

	it('with EXPLORER_ALLOW_PRIVATE_TARGETS=on a listed host may be on any of them; the loopback rule never may', async () => {
		const names = Object.fromEntries(SPECIAL_PURPOSE.map(([address], i) => [`n${i}.example.net`, [address]]));
		const local = testConfig({ EXPLORER_ALLOW_PRIVATE_TARGETS: 'on' });
		const listed = testConfig({ EXPLORER_ALLOWED_HOSTS: '*.example.net', HOST: '0.0.0.0' });
		const listedPrivate = testConfig({ EXPLORER_ALLOWED_HOSTS: '*.example.net', HOST: '0.0.0.0', EXPLORER_ALLOW_PRIVATE_TARGETS: 'on' });
		for (const name of Object.keys(names)) {
			const { resolve } = fakeDns(names);
			expect(await checkOutboundUrl(`https://${name}/`, listed, resolve), name).toMatchObject({ ok: false, kind: 'refused' });
			expect(await checkOutboundUrl(`https://${name}/`, listedPrivate, resolve), name).toMatchObject({ ok: true, address: names[name]![0] });
			expect(await checkOutboundUrl(`https://${name}/`, local, resolve), name).toMatchObject({ ok: false, kind: 'refused' });
		}
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
