/**
 * Reading a HAR as it arrives, for files of hundreds of megabytes: browsers save the whole page's traffic, scripts
 * and images included, and cannot save a subset. The JSON is tokenised by stream-json, strings piece by piece, and
 * each entry is built without the bodies the flow does not need (`FlowMembership.wantsBody`: a body is kept or
 * dropped as it streams, never held whole first), and without the browsers' own `_`-fields (WebSocket messages,
 * initiator stacks). Each entry is checked against the schema when it completes, then kept or let go.
 */
import { jsonParser } from 'stream-json/core/parser.js';
import { getManyValues, isMany, none } from 'stream-chain/defs.js';
import { FlowMembership } from './discover';
import { HarEntrySchema, type HarEntry } from './har-schema';
import { SanitisedCheck } from './sanitised';
import type { SanitisedExport } from '$lib/flow/flags';
import { JsonTooDeepError, MAX_JSON_DEPTH } from '$lib/http/json';

/** An entry the scan kept, with its place in the file's `log.entries`. */
export interface IndexedEntry {
	index: number;
	entry: HarEntry;
}

export type HarScan =
	| {
			ok: true;
			/** `log` without its entries. */
			log: Record<string, unknown>;
			entries: IndexedEntry[];
			/** How many entries the file holds. */
			total: number;
			/** Set when the file is a sanitised export (judged over all its entries, see sanitised.ts). */
			sanitised?: SanitisedExport;
	  }
	| { ok: false; problem: 'too-large'; bytes: number }
	| { ok: false; problem: 'not-json' | 'not-har' | 'too-deep' }
	/** `index`: the entry being read (0-based), when `where` is 'entry'. */
	| { ok: false; problem: 'too-many-values'; where: 'log' | 'entry'; index: number }
	| { ok: false; problem: 'malformed'; index: number; entry: unknown; issue: EntryIssue };

export interface EntryIssue {
	path: PropertyKey[];
	message: string;
	code: string;
	expected?: unknown;
}

export interface ScanOptions {
	/** Files larger than this (in bytes) are refused as soon as the scan reaches the size. */
	maxBytes: number;
}

/**
 * Longer strings outside bodies (a `data:` URL as long as its image) are cut, except in our own exports: no
 * request of the flow a browser recorded is that long.
 */
const MAX_FIELD_CHARS = 64 * 1024;
/** The browsers' fields of an entry that the import reads; every other `_`-field is skipped unread. */
const READ_EXTRAS = new Set(['_ssoFlowExplorer', '_error']);
/** The log's fields the import reads (har-schema.ts) besides its entries; the others, and the root's besides `log`, are skipped unread. */
const READ_LOG_FIELDS = new Set(['version', 'creator', 'comment', 'entries', '_ssoFlowExplorer']);
/**
 * Values kept outside the entries (the log's creator, comment and our extras), and inside one entry (its headers,
 * cookies, parameters, timings): dozens to hundreds in any real HAR. More is a file built to fill the server's
 * memory (millions of `{}`, a few bytes each in the file, dozens in memory), refused as soon as it passes these.
 */
const MAX_LOG_VALUES = 10_000;
const MAX_ENTRY_VALUES = 50_000;

/** Thrown when the values outside the entries, or in one entry, pass their limit. */
class TooManyValuesError extends Error {
	constructor(readonly where: 'log' | 'entry') {
		super(`too many values in the ${where}`);
	}
}
const OUR_CREATOR = 'SSO Flow Explorer';

type Container = Record<string, unknown> | unknown[];
interface Frame {
	value: Container;
	/** The key the next value is stored under, in an object. */
	key: string | null;
}

type Token = { name: string; value?: unknown };

function setKey(object: Record<string, unknown>, key: string, value: unknown): void {
	// A `__proto__` key is data in JSON, as JSON.parse makes it, never the prototype.
	Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Builds the HAR from tokens: the log's fields as they are, each entry handed to `admit` as it completes instead of
 * being stored in `log.entries`.
 */
class HarAssembler {
	private readonly stack: Frame[] = [];
	private root: unknown = undefined;
	private entriesSeen = false;
	private entryCount = 0;
	private string: { parts: string[]; length: number; keep: boolean; limit: number } | null = null;
	/** Values kept outside the entries so far (MAX_LOG_VALUES), and in the entry being built (MAX_ENTRY_VALUES). */
	private logValues = 0;
	private entryValues = 0;
	/** Inside a value skipped unread (a browser's `_`-field), and how deep inside it. */
	private skipping = false;
	private skipDepth = 0;
	/** The log's creator is the explorer: one of our exports, whose entries are all the run's. */
	ours = false;

	constructor(
		private readonly wantsBody: (entry: Record<string, unknown>) => boolean,
		private readonly admit: (entry: unknown, index: number) => void
	) {}

	get total(): number {
		return this.entryCount;
	}

	/** The root, once the input has ended, and whether it had a `log.entries` array. */
	result(): { root: unknown; hadEntries: boolean } {
		return { root: this.root, hadEntries: this.entriesSeen };
	}

	token(token: Token): void {
		if (this.skipping) return this.skip(token);
		switch (token.name) {
			case 'startObject':
			case 'startArray':
				if (this.stack.length >= MAX_JSON_DEPTH) throw new JsonTooDeepError();
				this.stack.push({ value: token.name === 'startObject' ? {} : [], key: null });
				return;
			case 'endObject':
			case 'endArray':
				return this.close();
			case 'keyValue':
				return this.key(token.value as string);
			case 'startString':
				this.string = this.newString();
				return;
			case 'stringChunk': {
				const s = this.string!;
				if (!s.keep || s.length >= s.limit) return;
				const piece = (token.value as string).slice(0, s.limit - s.length);
				s.parts.push(piece);
				s.length += piece.length;
				return;
			}
			case 'endString': {
				const s = this.string!;
				this.string = null;
				return this.put(s.keep ? s.parts.join('') : undefined);
			}
			case 'numberValue':
				return this.put(Number(token.value));
			case 'nullValue':
			case 'trueValue':
			case 'falseValue':
				return this.put(token.value);
		}
	}

	/** The frames of an entry: root, log, entries, the entry, then its fields. */
	private inEntries(depth: number): boolean {
		return depth >= 3 && this.stack[0]!.key === 'log' && this.stack[1]!.key === 'entries' && Array.isArray(this.stack[2]!.value);
	}

	private key(key: string): void {
		const top = this.stack.at(-1)!;
		top.key = key;
		// Inside an entry (the entry's own object or deeper): skip the browsers' extras that nothing reads. Outside the
		// entries, skip whatever the import does not read: only the log's own fields are kept.
		const depth = this.stack.length;
		const unread =
			this.inEntries(depth) ? key.startsWith('_') && !READ_EXTRAS.has(key) : depth === 1 ? key !== 'log' : depth === 2 && this.stack[0]!.key === 'log' && !READ_LOG_FIELDS.has(key);
		if (unread) {
			this.skipping = true;
			this.skipDepth = 0;
		}
	}

	private skip(token: Token): void {
		switch (token.name) {
			case 'startObject':
			case 'startArray':
				this.skipDepth++;
				return;
			case 'endObject':
			case 'endArray':
				this.skipDepth--;
				break;
			case 'startString':
			case 'stringChunk':
			case 'keyValue':
				return;
		}
		if (this.skipDepth === 0) {
			this.skipping = false;
			this.stack.at(-1)!.key = null;
		}
	}

	/** Bodies (`request.postData.text`, `response.content.text`) are kept only if the entry may belong to the flow. */
	private newString() {
		const depth = this.stack.length;
		const top = this.stack[depth - 1];
		const isBody =
			depth === 6 &&
			this.inEntries(depth) &&
			top!.key === 'text' &&
			((this.stack[3]!.key === 'request' && this.stack[4]!.key === 'postData') ||
				(this.stack[3]!.key === 'response' && this.stack[4]!.key === 'content'));
		if (!isBody) return { parts: [], length: 0, keep: true, limit: this.ours ? Infinity : MAX_FIELD_CHARS };
		// The request or response holding the body is still being built: it is not in the entry yet.
		const entry = { ...(this.stack[3]!.value as Record<string, unknown>), [this.stack[3]!.key!]: this.stack[4]!.value };
		return { parts: [], length: 0, keep: this.ours || this.wantsBody(entry), limit: Infinity };
	}

	private close(): void {
		const frame = this.stack.pop()!;
		const depth = this.stack.length;
		if (depth === 2 && this.stack[0]!.key === 'log' && this.stack[1]!.key === 'entries' && Array.isArray(frame.value)) {
			this.entriesSeen = true;
			this.put([]); // the entries went to `admit`
			return;
		}
		this.put(frame.value);
	}

	private put(value: unknown): void {
		const top = this.stack.at(-1);
		if (!top) {
			this.root = value;
			return;
		}
		const depth = this.stack.length;
		if (!this.inEntries(depth)) {
			if (++this.logValues > MAX_LOG_VALUES) throw new TooManyValuesError('log');
		} else if (depth > 3 && ++this.entryValues > MAX_ENTRY_VALUES) throw new TooManyValuesError('entry');
		if (Array.isArray(top.value)) {
			// A value in log.entries that is not an object is still an entry, and a malformed one.
			if (depth === 3 && this.inEntries(3)) {
				this.entryValues = 0;
				return this.admit(value, this.entryCount++);
			}
			top.value.push(value);
			return;
		}
		if (value !== undefined) setKey(top.value, top.key!, value);
		top.key = null;
		// The log's creator comes before its entries: our own exports are kept whole, every entry is the run's.
		if (this.stack.length === 2 && this.stack[0]!.key === 'log') {
			const creator = (top.value as Record<string, unknown>)['creator'];
			if (isObject(creator) && creator['name'] === OUR_CREATOR) this.ours = true;
		}
	}
}

/**
 * Reads a HAR from its bytes as they arrive, keeping the entries that belong to the flow (`FlowMembership`), or all
 * of them in one of our own exports. Stops reading at the first problem.
 */
export async function scanHar(chunks: AsyncIterable<Uint8Array | string>, options: ScanOptions): Promise<HarScan> {
	const membership = new FlowMembership();
	const sanitised = new SanitisedCheck();
	const kept = new Map<number, HarEntry>();
	let malformed: HarScan | null = null;
	const assembler = new HarAssembler(
		(entry) => isObject(entry['request']) && typeof entry['request']['url'] === 'string' && membership.wantsBody(entry as unknown as HarEntry),
		(value, index) => {
			if (malformed) return;
			const parsed = HarEntrySchema.safeParse(value);
			if (!parsed.success) {
				malformed = { ok: false, problem: 'malformed', index, entry: value, issue: parsed.error.issues[0]! };
				return;
			}
			// A copy: the entry's strings are slices of the chunks they were read from, and would hold each chunk whole.
			const entry = structuredClone(parsed.data);
			if (assembler.ours) return void kept.set(index, entry);
			sanitised.observe(entry);
			const { keep, release } = membership.admit(entry, index);
			for (const i of release) kept.delete(i);
			if (keep) kept.set(index, entry);
		}
	);
	// The tokeniser without stream-json's async wrapper, called with text: a generator per token costs more than the scan.
	const parse = jsonParser({ packKeys: true, streamKeys: false, packStrings: false, streamStrings: true, packNumbers: true, streamNumbers: false });
	const feed = (text: string | typeof none) => {
		const tokens = parse(text as string);
		if (isMany(tokens)) for (const token of getManyValues(tokens) as Token[]) assembler.token(token);
	};
	const decoder = new TextDecoder();
	let bytes = 0;
	try {
		for await (const chunk of chunks) {
			bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
			if (bytes > options.maxBytes) return { ok: false, problem: 'too-large', bytes };
			feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
			if (malformed) return malformed;
		}
		feed(decoder.decode());
		feed(none);
	} catch (error) {
		if (error instanceof TooManyValuesError) return { ok: false, problem: 'too-many-values', where: error.where, index: assembler.total };
		return { ok: false, problem: error instanceof JsonTooDeepError ? 'too-deep' : 'not-json' };
	}
	if (malformed) return malformed;
	const { root, hadEntries } = assembler.result();
	if (!hadEntries || !isObject(root) || !isObject(root['log'])) return { ok: false, problem: 'not-har' };
	if (!assembler.ours) for (const i of membership.finish()) kept.delete(i);
	const entries = [...kept].sort(([a], [b]) => a - b).map(([index, entry]) => ({ index, entry }));
	const hidden = assembler.ours ? undefined : sanitised.result();
	return { ok: true, log: root['log'], entries, total: assembler.total, ...(hidden ? { sanitised: hidden } : {}) };
}
