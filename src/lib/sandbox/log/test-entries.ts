/** For tests of the log's buffer: the smallest exchange the log's schema accepts, told apart by its ref. */
import type { LoggedExchange } from '../../http/logged-exchange';

export function exchangeRef(ref: string): LoggedExchange {
	return {
		ref,
		host: 'accounts',
		sandboxAt: '2030-01-01T00:00:00.000Z',
		durationMs: 1,
		request: { method: 'GET', url: 'http://localhost/health', headers: [], body: null },
		response: null,
		keys: {}
	};
}
