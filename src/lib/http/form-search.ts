/**
 * Many values, each written in any of its forms (`encodedForms`), found and hidden in one pass over a text. The cost
 * is the text's length plus what is found, whatever the number of values: a run imported from a HAR of a few
 * hundred sign-ins learns a few hundred codes and tokens, and searching its texts for each value in turn cost
 * values × text (8.6 s for 300 exchanges of 40 KB, on the server's only thread).
 *
 * How: every form is filed under a hash of its first `PREFIX` characters (all of it when shorter); one rolling hash
 * per prefix length present walks the text, and a position whose hash is filed is checked against the forms filed
 * there. Overlapping occurrences (one value's form running into another's) are hidden together, as one, so no
 * part of either is left; the replacement is that of the first value among them (values come in priority order).
 */
import { looksLikeJson, parseJson } from './json';

/** Forms are filed under their first characters, at most this many. */
const PREFIX = 8;
const BASE = 31;

interface Filed {
	form: string;
	value: number;
}

/** The forms filed under one prefix length, by the hash of their prefix. */
interface PrefixClass {
	length: number;
	/** BASE^(length-1), to take the outgoing character out of the rolling hash. */
	lead: number;
	buckets: Map<number, Filed[]>;
	/** A hash's low bits set here when something is filed under it: most positions are passed over on this alone. */
	filter: Uint8Array;
}

export interface Occurrence {
	start: number;
	end: number;
	/** The index of the value in the list the search was built from. */
	value: number;
}

function hashOf(text: string, start: number, length: number): number {
	let hash = 0;
	for (let i = start; i < start + length; i++) hash = (Math.imul(hash, BASE) + text.charCodeAt(i)) | 0;
	return hash;
}

export class FormSearch {
	readonly #classes = new Map<number, PrefixClass>();
	#values = 0;

	/** `values[i]`: the forms of value i. A lower index wins where occurrences overlap. */
	constructor(values: readonly (readonly string[])[] = []) {
		for (const forms of values) this.add(forms);
	}

	get empty(): boolean {
		return this.#classes.size === 0;
	}

	/** Adds a value (its forms) after those given so far; its index is the number of values before it. */
	add(forms: readonly string[]): number {
		const value = this.#values++;
		for (const form of forms) {
			if (form === '') continue;
			const length = Math.min(form.length, PREFIX);
			let prefixClass = this.#classes.get(length);
			if (!prefixClass) {
				let lead = 1;
				for (let i = 1; i < length; i++) lead = Math.imul(lead, BASE);
				prefixClass = { length, lead, buckets: new Map(), filter: new Uint8Array(1024) };
				this.#classes.set(length, prefixClass);
			}
			const hash = hashOf(form, 0, length);
			const bucket = prefixClass.buckets.get(hash);
			if (bucket) {
				bucket.push({ form, value });
				continue;
			}
			prefixClass.buckets.set(hash, [{ form, value }]);
			// Kept at most 1/16 full, so most positions are passed over on the filter alone; doubled as it fills.
			if (prefixClass.buckets.size * 16 > prefixClass.filter.length) {
				prefixClass.filter = new Uint8Array(prefixClass.filter.length * 2);
				for (const filed of prefixClass.buckets.keys()) prefixClass.filter[filed & (prefixClass.filter.length - 1)] = 1;
			} else prefixClass.filter[hash & (prefixClass.filter.length - 1)] = 1;
		}
		return value;
	}

	/** Every occurrence of every form in `text`, overlapping ones included, by where they start. */
	occurrences(text: string): Occurrence[] {
		const found: Occurrence[] = [];
		const classes = [...this.#classes.values()].filter((c) => c.length <= text.length);
		for (let k = 0; k < classes.length; k++) {
			const { length, lead, buckets, filter } = classes[k]!;
			const mask = filter.length - 1;
			let hash = hashOf(text, 0, length);
			for (let start = 0; ; start++) {
				if (filter[hash & mask] === 1) {
					for (const { form, value } of buckets.get(hash) ?? []) if (text.startsWith(form, start)) found.push({ start, end: start + form.length, value });
				}
				if (start + length >= text.length) break;
				hash = (Math.imul(hash - Math.imul(text.charCodeAt(start), lead), BASE) + text.charCodeAt(start + length)) | 0;
			}
		}
		// One list per prefix length, each in order: merged, they are in the order of where they start.
		if (classes.length > 1) found.sort((a, b) => a.start - b.start || b.end - a.end);
		return found;
	}

	/**
	 * `text` with every occurrence replaced by `replacementOf` its value, occurrences that overlap replaced together,
	 * and the values found (lowest index first). A JSON text is searched in its decoded strings too: a view that
	 * pretty-prints JSON decodes its escapes (`\u002B`), which no listed form may spell the same way.
	 */
	hide(text: string, replacementOf: (value: number) => string): { text: string; found: number[] } {
		const found = new Set<number>();
		const hideIn = (s: string) => this.#replace(s, replacementOf, found);
		let result = hideIn(text);
		if (result.includes('\\') && looksLikeJson(result)) {
			const parsed = parseJson(result);
			let changed = false;
			const rewritten = mapJsonStrings(parsed, (s) => {
				const hidden = hideIn(s);
				changed ||= hidden !== s;
				return hidden;
			});
			if (parsed !== undefined && changed) result = JSON.stringify(rewritten);
		}
		return { text: result, found: [...found].sort((a, b) => a - b) };
	}

	#replace(text: string, replacementOf: (value: number) => string, found: Set<number>): string {
		const occurrences = this.occurrences(text);
		if (occurrences.length === 0) return text;
		let result = '';
		let written = 0;
		for (let i = 0; i < occurrences.length; ) {
			const { start } = occurrences[i]!;
			let { end, value: first } = occurrences[i]!;
			found.add(first);
			for (i++; i < occurrences.length && occurrences[i]!.start < end; i++) {
				const next = occurrences[i]!;
				end = Math.max(end, next.end);
				first = Math.min(first, next.value);
				found.add(next.value);
			}
			result += text.slice(written, start) + replacementOf(first);
			written = end;
		}
		return result + text.slice(written);
	}
}

/** `value` with `fn` applied to every string in it, keys included. */
export function mapJsonStrings(value: unknown, fn: (text: string) => string): unknown {
	if (typeof value === 'string') return fn(value);
	if (Array.isArray(value)) return value.map((v) => mapJsonStrings(v, fn));
	if (value === null || typeof value !== 'object') return value;
	return Object.fromEntries(Object.entries(value).map(([k, v]) => [fn(k), mapJsonStrings(v, fn)]));
}
