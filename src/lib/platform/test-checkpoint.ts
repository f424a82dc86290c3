/**
 * For tests that prove a request did NOT reach a listener: instead of waiting a while, send a request of the test's
 * own on a new connection and wait for its answer. A listening socket accepts connections in the order they were
 * opened, and reads what arrived on them before what comes after, so once the checkpoint is answered every
 * connection opened and every request sent before it has arrived: a count read then is complete.
 */
import http from 'node:http';

/** The path of a checkpoint's request; a listener answers it (any status) and may leave it out of its records. */
export const CHECKPOINT_PATH = '/.test-checkpoint';

/** Sends the checkpoint to `port` on 127.0.0.1 on exactly one new connection; resolves once it is answered. */
export function checkpoint(port: number): Promise<void> {
	return new Promise((resolve, reject) => {
		http
			.get({ host: '127.0.0.1', port, path: CHECKPOINT_PATH, agent: false }, (response) => {
				response.resume();
				response.on('end', resolve);
			})
			.on('error', reject);
	});
}
