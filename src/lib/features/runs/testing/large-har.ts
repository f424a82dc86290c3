/**
 * For the tests and the benchmark only: a HAR as large as the ones customers send, the page's whole traffic with
 * content. The flow is the chrome-unrelated fixture's (with its secrets and cookies), or the entries given (a HAR
 * recorded in a test), spread among scripts and images of other hosts, each with its body and a cookie of its own.
 * Relative imports, so Playwright can load it.
 */
import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';

const FIXTURE = new URL('../pure/har/fixtures/chrome-unrelated.har.json', import.meta.url);

export interface LargeHarOptions {
	/** About how large the file is, in bytes. */
	bytes: number;
	/** How many entries it holds, the flow's included. */
	entries: number;
	/** The flow's entries; the chrome-unrelated fixture's by default. */
	flow?: readonly unknown[];
	/** Exported sanitised (Chrome's default since 130): the page's other requests carry no cookie either. */
	sanitised?: boolean;
}

/** A value of each padding entry's cookie: none of it may survive an import. */
export const PADDING_COOKIE = 'cdn-session-7c1e9a';

const SCRIPT_LINE = 'function track(event){window.dataLayer=window.dataLayer||[];window.dataLayer.push(event);return event;}\n';
const IMAGE_BLOCK = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg';

function repeatTo(block: string, length: number): string {
	return block.repeat(Math.ceil(length / block.length)).slice(0, Math.max(0, length));
}

function paddingEntry(n: number, bodyLength: number, sanitised: boolean): string {
	const image = n % 3 !== 0;
	const url = image ? `https://cdn.example.net/img/photo-${n}.png` : `https://static.example.org/js/bundle-${n}.js`;
	const mimeType = image ? 'image/png' : 'application/javascript';
	const entry = {
		startedDateTime: new Date(Date.UTC(2026, 2, 2, 9, 0, 0, n)).toISOString(),
		time: 12.5,
		request: {
			method: 'GET',
			url,
			httpVersion: 'http/2.0',
			cookies: sanitised ? [] : [{ name: 'cdn_session', value: PADDING_COOKIE }],
			headers: [
				{ name: ':authority', value: new URL(url).host },
				{ name: 'User-Agent', value: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36' },
				...(sanitised ? [] : [{ name: 'Cookie', value: `cdn_session=${PADDING_COOKIE}` }])
			],
			queryString: [],
			headersSize: -1,
			bodySize: 0
		},
		response: {
			status: 200,
			statusText: '',
			httpVersion: 'http/2.0',
			cookies: [],
			headers: [{ name: 'content-type', value: mimeType }],
			content: { size: bodyLength, mimeType, text: repeatTo(image ? IMAGE_BLOCK : SCRIPT_LINE, bodyLength), ...(image ? { encoding: 'base64' } : {}) },
			redirectURL: '',
			headersSize: -1,
			bodySize: bodyLength,
			_transferSize: bodyLength
		},
		cache: {},
		timings: { blocked: 1, dns: -1, ssl: -1, connect: -1, send: 0.2, wait: 10, receive: 2.3 },
		_initiator: { type: 'script', stack: { callFrames: [{ functionName: 'load', url: 'https://shop.example.com/app.js', lineNumber: 1 }] } },
		_priority: 'Low',
		_resourceType: image ? 'image' : 'script'
	};
	return JSON.stringify(entry);
}

/** The HAR's text, piece by piece (an entry a piece), so a file of hundreds of megabytes is never one string. */
export function* largeHarPieces(options: LargeHarOptions): Generator<string> {
	const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { log: { entries: unknown[]; creator: unknown; pages: unknown } };
	const flow = (options.flow ?? fixture.log.entries).map((e) => JSON.stringify(e));
	const padding = Math.max(0, options.entries - flow.length);
	const flowBytes = flow.reduce((n, e) => n + e.length, 0);
	const bodyLength = padding === 0 ? 0 : Math.floor((options.bytes - flowBytes) / padding) - 1200; // an entry's fields
	// The flow's entries sit together in the middle of the page's traffic, as a sign-in does.
	const flowAt = Math.floor(padding / 2);
	yield `{"log":{"version":"1.2","creator":${JSON.stringify(fixture.log.creator)},"pages":${JSON.stringify(fixture.log.pages)},"entries":[`;
	let first = true;
	const separated = (piece: string) => {
		const text = first ? piece : `,${piece}`;
		first = false;
		return text;
	};
	for (let n = 0; n < padding; n++) {
		if (n === flowAt) for (const e of flow) yield separated(e);
		yield separated(paddingEntry(n, bodyLength, options.sanitised ?? false));
	}
	if (flowAt >= padding) for (const e of flow) yield separated(e);
	yield ']}}';
}

/** Writes the HAR to `path`; answers its size in bytes. */
export async function writeLargeHar(path: string, options: LargeHarOptions): Promise<number> {
	const out = createWriteStream(path);
	let size = 0;
	for (const piece of largeHarPieces(options)) {
		size += Buffer.byteLength(piece);
		if (!out.write(piece)) await once(out, 'drain');
	}
	out.end();
	await once(out, 'finish');
	return size;
}
