import { describe, expect, it } from 'vitest';
import { readLogEntry, readLoggedExchange } from './logged-exchange';

const exchange = {
	ref: 'p.7',
	host: 'accounts',
	sandboxAt: '2030-01-01T00:00:00.000Z',
	durationMs: 2,
	request: { method: 'GET', url: 'http://api.test/api/v3/me.json', headers: [{ name: 'User-Agent', value: 'shop/1' }], body: null },
	response: { status: 200, statusText: 'OK', headers: [], body: '{}', truncated: false },
	keys: { presented: 'digest' }
};

describe('readLogEntry', () => {
	it('reads an entry as GET /sandbox/log answers it', () => {
		expect(readLogEntry({ id: 7, at: '2030-01-01T00:00:00.002Z', host: 'accounts', entry: exchange })).toEqual({
			id: 7,
			at: '2030-01-01T00:00:00.002Z',
			host: 'accounts',
			entry: exchange
		});
	});

	it("reads an older sandbox's entry, written before refs and keys, with its row's id as its ref and no keys", () => {
		const { ref: _ref, keys: _keys, ...older } = exchange;
		expect(readLogEntry({ id: 3, at: '2030-01-01T00:00:00.002Z', host: 'accounts', entry: older })?.entry).toMatchObject({ ref: 'log-3', keys: {} });
	});

	it('refuses what is not an entry, rather than reading a field of it', () => {
		expect(readLogEntry(null)).toBeNull();
		expect(readLogEntry({ id: '7', at: 'x', host: 'accounts', entry: exchange })).toBeNull();
		expect(readLogEntry({ id: 7, at: 'x', host: 'elsewhere', entry: exchange })).toBeNull();
		expect(readLogEntry({ id: 7, at: 'x', host: 'accounts', entry: { ...exchange, request: { method: 'GET' } } })).toBeNull();
		expect(readLoggedExchange('not an object', 1)).toBeNull();
	});
});
