import { afterEach, describe, expect, it, vi } from 'vitest';
import { isClientAbort, logServerFaultsOnly } from './http-guards';

const event = { request: new Request('http://localhost/api/import', { method: 'POST' }), url: new URL('http://localhost/api/import') } as Parameters<typeof logServerFaultsOnly>[0]['event'];
const aborted = () => Object.assign(new Error('aborted'), { code: 'ECONNRESET' });

describe('isClientAbort', () => {
	it("knows node's errors for a client that went away mid-request", () => {
		expect(isClientAbort(aborted())).toBe(true);
		expect(isClientAbort(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }))).toBe(true);
		expect(isClientAbort(new Error('aborted'))).toBe(true);
	});

	it('is false for a fault of ours', () => {
		expect(isClientAbort(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
		expect(isClientAbort('aborted')).toBe(false);
		expect(isClientAbort(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }))).toBe(false);
	});
});

describe('logServerFaultsOnly', () => {
	afterEach(() => vi.restoreAllMocks());

	it('logs a 5xx of ours, and neither a 4xx nor a client that went away', () => {
		const log = vi.spyOn(console, 'error').mockImplementation(() => {});
		logServerFaultsOnly({ error: aborted(), status: 500, event, message: 'Internal Error' });
		logServerFaultsOnly({ error: new Error('not found'), status: 404, event, message: 'Not Found' });
		expect(log).not.toHaveBeenCalled();
		logServerFaultsOnly({ error: new TypeError('bug'), status: 500, event, message: 'Internal Error' });
		expect(log).toHaveBeenCalledTimes(1);
		expect(log.mock.calls[0]![0]).toBe('POST /api/import failed:');
	});
});
