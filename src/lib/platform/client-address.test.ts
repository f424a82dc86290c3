import { afterEach, describe, expect, it, vi } from 'vitest';
import { requestVisitor, unreadProxyHeader } from './client-address';

const headers = (entries: Record<string, string> = {}) => new Headers(entries);

describe('unreadProxyHeader', () => {
	it('names the proxy header of a request from this machine when ADDRESS_HEADER is unset', () => {
		expect(unreadProxyHeader('127.0.0.1', headers({ 'X-Forwarded-For': '203.0.113.9' }), null)).toBe('x-forwarded-for');
		expect(unreadProxyHeader('::1', headers({ Forwarded: 'for=203.0.113.9' }), null)).toBe('forwarded');
		expect(unreadProxyHeader('::ffff:127.0.0.1', headers({ 'X-Real-IP': '203.0.113.9' }), null)).toBe('x-real-ip');
	});

	it('is null when ADDRESS_HEADER is set, the request came from elsewhere, or it carries no proxy header', () => {
		expect(unreadProxyHeader('127.0.0.1', headers({ 'X-Forwarded-For': '203.0.113.9' }), 'x-forwarded-for')).toBeNull();
		expect(unreadProxyHeader('198.51.100.7', headers({ 'X-Forwarded-For': '203.0.113.9' }), null)).toBeNull();
		expect(unreadProxyHeader('127.0.0.1', headers(), null)).toBeNull();
		expect(unreadProxyHeader(undefined, headers({ 'X-Forwarded-For': '203.0.113.9' }), null)).toBeNull();
	});
});

describe('requestVisitor', () => {
	afterEach(() => vi.restoreAllMocks());
	const event = (address: string | undefined, entries: Record<string, string> = {}) => ({
		getClientAddress: () => {
			if (address === undefined) throw new Error('no address');
			return address;
		},
		request: new Request('http://localhost/', { headers: entries })
	});

	it('counts a remote address, not this machine, and a request of unknown address as one visitor', () => {
		expect(requestVisitor(event('198.51.100.7'))).not.toBeNull();
		expect(requestVisitor(event('198.51.100.7'))).toBe(requestVisitor(event('198.51.100.7')));
		expect(requestVisitor(event('127.0.0.1'))).toBeNull();
		expect(requestVisitor(event(undefined))).not.toBeNull();
	});

	it('says once on the console, naming the header and ADDRESS_HEADER, that a local proxy makes every visitor look local', () => {
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		expect(requestVisitor(event('127.0.0.1'))).toBeNull();
		expect(warn).not.toHaveBeenCalled();
		expect(requestVisitor(event('127.0.0.1', { 'X-Forwarded-For': '203.0.113.9' }))).toBeNull();
		expect(requestVisitor(event('127.0.0.1', { 'X-Forwarded-For': '203.0.113.10' }))).toBeNull();
		expect(warn).toHaveBeenCalledTimes(1);
		expect(warn.mock.calls[0]![0]).toMatch(/x-forwarded-for.*ADDRESS_HEADER is not set.*count no one.*Set ADDRESS_HEADER/s);
	});
});
