/** The part of autocannon 8's API the load benchmark uses (the package ships no types). */
declare module 'autocannon' {
	import type { EventEmitter } from 'node:events';

	interface RawRequest {
		method?: string;
		path?: string;
		headers?: Record<string, string>;
		body?: string;
	}

	interface Request extends RawRequest {
		setupRequest?: (req: RawRequest, context: Record<string, unknown>) => RawRequest;
	}

	interface Options {
		url: string;
		connections?: number;
		pipelining?: number;
		duration?: number;
		amount?: number;
		method?: string;
		headers?: Record<string, string>;
		requests?: Request[];
	}

	interface Histogram {
		average: number;
		total: number;
		p50: number;
		p99: number;
	}

	interface Result {
		duration: number;
		requests: Histogram;
		latency: Histogram;
		non2xx: number;
		errors: number;
		timeouts: number;
	}

	interface Instance extends EventEmitter {
		stop(): void;
	}

	function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance;
	export default autocannon;
}
