import { describe, expect, it } from 'vitest';
import { visitorOf } from './visitor';

describe('visitorOf', () => {
	it('counts an IPv4 address, and one mapped into IPv6, as itself', () => {
		expect(visitorOf('192.0.2.7')).toBe('192.0.2.7');
		expect(visitorOf('::ffff:192.0.2.7')).toBe('192.0.2.7');
		expect(visitorOf('127.0.0.2')).not.toBe(visitorOf('127.0.0.3'));
	});

	it('counts every address of one IPv6 /64 as one visitor, whatever its spelling', () => {
		const one = visitorOf('2001:db8:0:1::1');
		expect(one).toBe('2001:db8:0:1::/64');
		for (const address of ['2001:db8:0:1:ffff:ffff:ffff:ffff', '2001:0DB8:0000:0001:0:0:0:2', '2001:db8::1:0:0:0:3', 'fe80::1%eth0'.replace('fe80::1', '2001:db8:0:1::9')]) {
			expect(visitorOf(address), address).toBe(one);
		}
		expect(visitorOf('2001:db8:0:2::1')).not.toBe(one);
		expect(visitorOf('::1')).toBe('0:0:0:0::/64');
		expect(visitorOf('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
	});

	it('an unknown address is one visitor', () => {
		expect(visitorOf(undefined)).toBe('unknown');
	});
});
