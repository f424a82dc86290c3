/**
 * Redaction of a run before it is stored or exported. Removes client secrets, access and refresh tokens,
 * passwords, cookies and Authorization payloads wherever they appear: by name (query and form parameters, JSON
 * fields, headers), then every other occurrence of each value found, in every form a server could write it in
 * (`encodedForms`: encoded for a URL, HTML or JSON, encoded twice, in another Unicode spelling, in base64). Grant codes are kept, because they are single use and short-lived and a diagnosis
 * needs them (the same code exchanged twice, a code sent to me.json), but each place is marked.
 *
 * Each redaction is recorded as what and where, never the value. Redacting a redacted run changes nothing.
 */
import { base64DecodeUtf8, base64EncodeUtf8, escapeRegExp } from '$lib/http/encoding';
import { decodeQueryComponent, mapFormPairs, mapQueryPairs } from '$lib/http/form';
import { headerValue } from '$lib/http/headers';
import { SECRET_PARAMETERS, encodedForms, hideForms, holdsForm, isSecretParameter, secretHeader, showing, type SecretParameter } from '$lib/http/secrets';
import type { RecordedExchange } from '$lib/flow/exchange';
import { MASK, type HttpHeader } from '$lib/http/exchange';
import type { Redaction, Run } from './run';
import { setRecent } from '$lib/recent';
import type { Frozen } from '$lib/frozen';

export interface KnownSecrets {
	clientSecrets?: string[];
	tokens?: string[];
}

export const WHAT = {
	clientSecret: 'client secret',
	accessToken: 'access token',
	refreshToken: 'refresh token',
	password: 'password',
	token: 'token',
	cookie: 'cookie',
	credentials: 'Authorization header payload',
	code: 'grant code (kept)'
} as const;

/** What each secret parameter or JSON field is, for a person. */
const WHAT_PARAMETER: Readonly<Record<SecretParameter, string>> = {
	client_secret: WHAT.clientSecret,
	access_token: WHAT.accessToken,
	refresh_token: WHAT.refreshToken,
	password: WHAT.password,
	code: WHAT.code
};

/** Words of the protocol a found value must not be part of, or hiding the value would mangle them. */
const PROTOCOL_WORDS = [
	...SECRET_PARAMETERS,
	'grant_type authorization_code redirect_uri client_id response_type code Bearer Basic Authorization'
].join(' ');

/** Below this length a found value is hidden only where it was found by name; elsewhere it may be ordinary text. */
const MIN_SEARCHED_LENGTH = 4;

export const LINK_PLACE = 'the authorisation link';
export const CALLBACK_PLACE = 'the callback URL';

export function exchangePlace(index: number, exchange: Pick<RecordedExchange, 'step'>): string {
	return `exchange ${index + 1} (${exchange.step})`;
}

/* ------------------------------------------------------------------ visiting every text of a run */

type Field =
	| { kind: 'url' }
	| { kind: 'header'; name: string }
	| { kind: 'body'; contentType: string }
	| { kind: 'text' };

type TextMap = (text: string, where: string, field: Field) => string;

/** `fn` applied to every text of one part of a run that could hold a secret. */
type PartMap<T> = (part: T, fn: TextMap) => T;

function contentTypeOf(headers: HttpHeader[]): string {
	return headerValue(headers, 'content-type')?.toLowerCase() ?? '';
}

function mapHeaders(headers: HttpHeader[], where: string, fn: TextMap): HttpHeader[] {
	return headers.map((h) => ({ ...h, value: fn(h.value, `${where} header ${h.name}`, { kind: 'header', name: h.name }) }));
}

function mapExchange(exchange: RecordedExchange, where: string, fn: TextMap): RecordedExchange {
	const { request, response, failure } = exchange;
	const text: Field = { kind: 'text' };
	return {
		...exchange,
		label: fn(exchange.label, `${where} label`, text),
		request: {
			...request,
			url: fn(request.url, `${where} URL`, { kind: 'url' }),
			headers: mapHeaders(request.headers, `${where} request`, fn),
			body:
				request.body === null
					? null
					: fn(request.body, `${where} request body`, { kind: 'body', contentType: contentTypeOf(request.headers) })
		},
		response: response && {
			...response,
			headers: mapHeaders(response.headers, `${where} response`, fn),
			body: fn(response.body, `${where} response body`, { kind: 'body', contentType: contentTypeOf(response.headers) })
		},
		failure: failure && { ...failure, message: fn(failure.message, `${where} error message`, text) }
	};
}

/** The texts of a run outside its exchanges: title, link, callback. */
const mapHead: PartMap<Run> = (run, fn) => ({
	...run,
	title: fn(run.title, 'the title', { kind: 'text' }),
	link: run.link === null ? null : fn(run.link, LINK_PLACE, { kind: 'url' }),
	callback: run.callback && { ...run.callback, url: fn(run.callback.url, CALLBACK_PLACE, { kind: 'url' }) }
});

const mapExchangeAt =
	(index: number): PartMap<RecordedExchange> =>
	(exchange, fn) =>
		mapExchange(exchange, exchangePlace(index, exchange), fn);

/* ------------------------------------------------------------------ query strings and form bodies */

const isMasked = (value: string) => value.includes(MASK);

const looksLikeUrl = (text: string) => /^https?:\/\//i.test(text.trim());

/** A body of `name=value` pairs with no whitespace, as form bodies are. */
const looksLikeForm = (body: string) => /^[^\s=&]+=\S*$/.test(body);

const looksLikeJson = (body: string) => /^\s*[{[]/.test(body);

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** Every `[key, value]` with a string value, at any depth of a parsed JSON document. */
function jsonStringEntries(value: unknown): [string, string][] {
	if (Array.isArray(value)) return value.flatMap(jsonStringEntries);
	if (value === null || typeof value !== 'object') return [];
	return Object.entries(value).flatMap(([k, v]): [string, string][] =>
		typeof v === 'string' ? [[k, v]] : jsonStringEntries(v)
	);
}


/* ------------------------------------------------------------------ the redactor */

interface Needle {
	what: string;
	value: string;
}

/** Whether a value found is hidden everywhere else too; shorter values may be ordinary text elsewhere. */
const searchable = (value: string) => value.length >= MIN_SEARCHED_LENGTH && !isMasked(value) && !PROTOCOL_WORDS.includes(value);

const CREDENTIALS = /^(\S+)(\s+)(.*)$/s;

/** Printable text with a colon: the `id:secret` payload of a Basic (or the sandbox's Bearer) credentials header. */
function credentialsPayload(encoded: string): { id: string; secret: string } | null {
	const decoded = base64DecodeUtf8(encoded);
	if (decoded === null || /[\u0000-\u001f]/.test(decoded)) return null;
	const colon = decoded.indexOf(':');
	return colon === -1 ? null : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** The first pass over one part of a run: values hidden by their name, and learnt to be hidden everywhere. */
class NameRedactor {
	readonly redactions: Redaction[] = [];
	readonly needles: Needle[] = [];

	constructor(private readonly codes: ReadonlySet<string>) {}

	record(what: string, where: string): void {
		if (!this.redactions.some((r) => r.what === what && r.where === where)) this.redactions.push({ what, where });
	}

	/** A value to hide everywhere else it appears. Passwords only where found: they are often ordinary words. */
	addNeedle(what: string, value: string): void {
		if (searchable(value) && !this.needles.some((n) => n.value === value)) this.needles.push({ what, value });
	}

	readonly structural: TextMap = (text, where, field) => {
		switch (field.kind) {
			case 'url':
				return mapQueryPairs(text, (name, value) => this.param(name, value, `${where} parameter ${name}`));
			case 'header':
				return this.header(field.name, text, where);
			case 'body':
				return this.body(text, where, field.contentType);
			case 'text':
				return text;
		}
	};

	/** A parameter's new raw value, or undefined to keep it. */
	private param(name: string, value: string, where: string): string | undefined {
		if (value === '' || isMasked(value)) return undefined;
		// A grant code is kept, noted; so is an access_token parameter that carries one (a code sent to me.json).
		if (name === 'code' || (name === 'access_token' && this.codes.has(value))) {
			this.record(WHAT.code, where);
			return undefined;
		}
		if (!isSecretParameter(name) || showing(name, 'run') !== 'hidden') return undefined;
		const what = WHAT_PARAMETER[name];
		this.record(what, where);
		if (what !== WHAT.password) this.addNeedle(what, value);
		return MASK;
	}

	private header(name: string, value: string, where: string): string {
		switch (secretHeader(name)) {
			case 'cookie':
				return this.cookies(value, where);
			case 'set-cookie':
				return this.setCookies(value, where);
			case 'authorization':
				return this.authorization(value, where);
		}
		if (looksLikeUrl(value)) return this.structural(value, where, { kind: 'url' });
		return value;
	}

	/** `a=1; b=2`: each value hidden, names kept (they help a diagnosis and are not secret). */
	private cookies(value: string, where: string): string {
		return value
			.split(';')
			.map((pair) => this.cookie(pair, where))
			.join(';');
	}

	/** `name=value; Path=/; HttpOnly` (one per line when a recorder joined several): only the value is hidden. */
	private setCookies(value: string, where: string): string {
		return value
			.split('\n')
			.map((line) => {
				const semi = line.indexOf(';');
				return semi === -1 ? this.cookie(line, where) : this.cookie(line.slice(0, semi), where) + line.slice(semi);
			})
			.join('\n');
	}

	private cookie(pair: string, where: string): string {
		const eq = pair.indexOf('=');
		const value = eq === -1 ? '' : pair.slice(eq + 1);
		if (value.trim() === '' || isMasked(value)) return pair;
		this.record(WHAT.cookie, `${where}: ${pair.slice(0, eq).trim()}`);
		return `${pair.slice(0, eq)}=${MASK}`;
	}

	private authorization(value: string, where: string): string {
		const match = CREDENTIALS.exec(value.trim());
		const scheme = match?.[1] ?? '';
		const payload = match?.[3] ?? value.trim();
		if (payload === '' || isMasked(payload)) return value;
		const credentials = /^(basic|bearer)$/i.test(scheme) ? credentialsPayload(payload) : null;
		if (credentials) {
			if (credentials.secret === '' || isMasked(credentials.secret)) return value;
			this.record(WHAT.clientSecret, `${where} (inside its base64 payload)`);
			this.addNeedle(WHAT.clientSecret, credentials.secret);
			this.addNeedle(WHAT.clientSecret, decodeQueryComponent(credentials.secret));
			return `${scheme}${match?.[2] ?? ' '}${base64EncodeUtf8(`${credentials.id}:${MASK}`)}`;
		}
		if (/^bearer$/i.test(scheme) && this.codes.has(payload)) {
			this.record(WHAT.code, where);
			return value;
		}
		const isBearer = /^bearer$/i.test(scheme);
		this.record(isBearer ? WHAT.accessToken : WHAT.credentials, where);
		if (isBearer) this.addNeedle(WHAT.accessToken, payload);
		return match ? `${scheme}${match[2]}${MASK}` : MASK;
	}

	private body(text: string, where: string, contentType: string): string {
		if (contentType.includes('json') || looksLikeJson(text)) {
			const parsed = parseJson(text);
			if (parsed !== undefined) return this.json(text, parsed, where);
		}
		if (contentType.includes('x-www-form-urlencoded') || looksLikeForm(text))
			return mapFormPairs(text, (name, value) => this.param(name, value, `${where} parameter ${name}`));
		return text;
	}

	/** Sensitive fields replaced in the text as written, so the rest of the body keeps its exact form. */
	private json(text: string, parsed: unknown, where: string): string {
		let result = text;
		let rewrite = false;
		for (const [key, value] of jsonStringEntries(parsed)) {
			if (this.param(key, value, `${where} field ${key}`) !== MASK) continue;
			const escaped = JSON.stringify(value).slice(1, -1);
			const forms = [...new Set([escaped, escaped.replace(/\//g, '\\/')])].map(escapeRegExp).join('|');
			const pattern = new RegExp(`("${escapeRegExp(key)}"\\s*:\\s*")(?:${forms})(")`, 'g');
			const next = result.replace(pattern, `$1${MASK}$2`);
			if (next === result) rewrite = true;
			result = next;
		}
		// An exotic escape the pattern missed: write the document again, values hidden, rather than keep a secret.
		return rewrite ? JSON.stringify(maskJson(parsed)) : result;
	}
}

function maskJson(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(maskJson);
	if (value === null || typeof value !== 'object') return value;
	return Object.fromEntries(
		Object.entries(value).map(([k, v]) => [k, typeof v === 'string' && showing(k, 'run') === 'hidden' ? MASK : maskJson(v)])
	);
}

/** The grant codes one part carries: `code` parameters of its URLs (link, callback, requests, redirects) and forms. */
function codesIn<T>(part: T, map: PartMap<T>): string[] {
	const codes: string[] = [];
	const collect = (name: string, value: string) => {
		if (name === 'code' && value !== '') codes.push(value);
		return undefined;
	};
	map(part, (text, _where, field) => {
		const isUrl = field.kind === 'url' || (field.kind === 'header' && looksLikeUrl(text));
		if (isUrl) mapQueryPairs(text, collect);
		else if (field.kind === 'body' && looksLikeForm(text)) mapFormPairs(text, collect);
		return text;
	});
	return codes;
}

interface PartRedaction<T> {
	value: T;
	redactions: Redaction[];
}

interface NamedPart<T> extends PartRedaction<T> {
	needles: Needle[];
}

function redactByName<T>(part: T, map: PartMap<T>, codes: ReadonlySet<string>): NamedPart<T> {
	const redactor = new NameRedactor(codes);
	return { value: map(part, redactor.structural), redactions: redactor.redactions, needles: redactor.needles };
}

/** A value learnt in the first pass with every form it may be written in, longest first. */
interface Search {
	what: string;
	forms: readonly string[];
}

function searchesOf(needles: Needle[]): Search[] {
	return [...needles].sort((a, b) => b.value.length - a.value.length).map(({ what, value }) => ({ what, forms: encodedForms(value) }));
}

/** The second pass over one part: every form of every value learnt anywhere in the run, wherever it is. */
function redactBySearch<T>(part: T, map: PartMap<T>, searches: Search[]): PartRedaction<T> {
	const redactions: Redaction[] = [];
	const value = map(part, (text, where) => {
		let result = text;
		for (const { what, forms } of searches) {
			if (!holdsForm(result, forms)) continue;
			redactions.push({ what, where });
			result = hideForms(result, forms, MASK);
		}
		return result;
	});
	return { value, redactions };
}

/**
 * One exchange of a redacted run, with what its redaction found in each pass (see `assembleRun`). Frozen: the
 * redaction of a run that grows gives back the same piece for an exchange it did not redact again.
 */
export type RedactedExchange = Frozen<{
	exchange: RecordedExchange;
	named: Redaction[];
	searched: Redaction[];
}>;

/**
 * A redacted run in the pieces it is assembled from, so a store can keep each exchange on its own. `head` is the
 * run without its exchanges (`exchanges` is empty) and with the redactions it came with; `assembleRun` gives the
 * redacted run.
 */
export interface RedactedRun {
	head: Run;
	headRedactions: { named: Redaction[]; searched: Redaction[] };
	exchanges: readonly RedactedExchange[];
}

/** The redacted run: its redactions listed as one pass after the other, each place once. */
export function assembleRun({ head, headRedactions, exchanges }: RedactedRun): Run {
	return {
		...head,
		// Frozen (see `frozen`): a change throws rather than alter what the next redaction of the run gives back.
		exchanges: exchanges.map((e) => e.exchange as RecordedExchange),
		redactions: addRedactions(head.redactions, [
			...headRedactions.named,
			...exchanges.flatMap((e) => e.named as Redaction[]),
			...headRedactions.searched,
			...exchanges.flatMap((e) => e.searched as Redaction[])
		])
	};
}

/** The grant codes the exchanges carry from index `from` on, in order. */
function exchangeCodes(exchanges: RecordedExchange[], from = 0): string[] {
	return exchanges.slice(from).flatMap((e, i) => codesIn(e, mapExchangeAt(from + i)));
}

/** Every grant code the run carries. */
export function grantCodes(frozen: Frozen<Run>): Set<string> {
	const run = frozen as Run;
	return new Set([...codesIn(run, mapHead), ...exchangeCodes(run.exchanges)]);
}

/** `earlier`, then each of `found` that is not already listed. */
function addRedactions(earlier: Redaction[], found: Redaction[]): Redaction[] {
	const listed = new Set(earlier.map(({ what, where }) => `${what}\n${where}`));
	const added = found.filter(({ what, where }) => {
		const key = `${what}\n${where}`;
		if (listed.has(key)) return false;
		listed.add(key);
		return true;
	});
	return [...earlier, ...added];
}

/**
 * The exchanges' share of a run's redaction, kept so that the next redaction of the same run, grown by some
 * exchanges, redoes only what changed. `named` and `pieces` hold one entry per exchange, in order.
 */
interface ExchangesShare {
	exchanges: RecordedExchange[];
	/** The grant codes the exchanges carry, in order, repeats included. */
	codes: string[];
	/** The run's codes (head and exchanges) the first pass used, as a sorted JSON list. */
	codesKey: string;
	/** The first pass over each exchange, which hides values by their name and learns them. */
	named: NamedPart<RecordedExchange>[];
	/** Every value the first pass learnt from the exchanges, each once, named as it was first found. */
	learnt: Needle[];
	learntValues: Set<string>;
	/** What the second pass searched for, and a key equal for equal searches. */
	searches: Search[];
	searchesKey: string;
	pieces: RedactedExchange[];
}

function startsWith(exchanges: RecordedExchange[], prefix: RecordedExchange[]): boolean {
	return prefix.length <= exchanges.length && prefix.every((e, i) => exchanges[i] === e);
}

/** Adds each of `found` whose value is not yet in `values`. */
function learn(learnt: Needle[], values: Set<string>, found: Needle[]): void {
	for (const needle of found) {
		if (values.has(needle.value)) continue;
		values.add(needle.value);
		learnt.push(needle);
	}
}

/**
 * Two passes over the whole run: first each part (the head, then each exchange) hides values by their name and
 * learns them; then every part is searched for every value known or learnt anywhere in the run.
 *
 * With `previous`, the share of an earlier redaction of this run whose exchanges the run starts with, each pass
 * keeps what it made of those exchanges as long as what it depends on is unchanged (the run's grant codes for the
 * first, the values searched for the second), and does only the new exchanges: a walk that grows by a step costs
 * the step, not the walk. The result is the same as without `previous`, and a kept exchange's piece is the very
 * object `previous` holds.
 */
function redactGrowing(run: Run, known: KnownSecrets, previous?: ExchangesShare): { redacted: RedactedRun; share: ExchangesShare } {
	const earlier = previous && startsWith(run.exchanges, previous.exchanges) ? previous : undefined;
	const kept = earlier?.exchanges.length ?? 0;
	const exchanges = run.exchanges.slice();

	const codesOfExchanges = [...(earlier?.codes ?? []), ...exchangeCodes(exchanges, kept)];
	const codes = new Set([...codesIn(run, mapHead), ...codesOfExchanges]);
	const codesKey = JSON.stringify([...codes].sort());
	const head = redactByName(run, mapHead, codes);

	const namedKept = earlier?.codesKey === codesKey ? kept : 0;
	const named = earlier && namedKept ? earlier.named.slice() : [];
	const learnt = earlier && namedKept ? earlier.learnt.slice() : [];
	const learntValues = new Set(earlier && namedKept ? earlier.learntValues : []);
	for (let i = namedKept; i < exchanges.length; i++) {
		const part = redactByName(exchanges[i]!, mapExchangeAt(i), codes);
		named.push(part);
		learn(learnt, learntValues, part.needles);
	}

	// Each value once, named as it was first found (the exchanges' values are already each once).
	const needles: Needle[] = [];
	learn(needles, new Set(), [
		...(known.clientSecrets ?? []).map((value) => ({ what: WHAT.clientSecret, value })),
		...(known.tokens ?? []).map((value) => ({ what: WHAT.token, value })),
		...head.needles,
		...learnt
	]);
	const searched = needles.filter((n) => searchable(n.value));
	const searchesKey = JSON.stringify(searched.map((n) => [n.what, n.value]));
	const searches = earlier?.searchesKey === searchesKey ? earlier.searches : searchesOf(searched);

	const piecesKept = namedKept === kept && earlier?.searchesKey === searchesKey ? kept : 0;
	const pieces = earlier && piecesKept ? earlier.pieces.slice() : [];
	for (let i = piecesKept; i < exchanges.length; i++) {
		const part = named[i]!;
		const found = redactBySearch(part.value, mapExchangeAt(i), searches);
		pieces.push(frozen({ exchange: found.value, named: part.redactions, searched: found.redactions }));
	}

	const searchedHead = redactBySearch(head.value, mapHead, searches);
	return {
		redacted: {
			head: { ...searchedHead.value, exchanges: [], redactions: run.redactions },
			headRedactions: { named: head.redactions, searched: searchedHead.redactions },
			exchanges: pieces
		},
		share: { exchanges, codes: codesOfExchanges, codesKey, named, learnt, learntValues, searches, searchesKey, pieces }
	};
}

/** `value`, frozen at every depth: a piece is given back by later redactions of its run, so no one may change it. */
function frozen<T>(value: T): Frozen<T> {
	if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
		for (const inner of Object.values(value)) frozen(inner);
		Object.freeze(value);
	}
	return value as Frozen<T>;
}

/** Runs whose exchanges' share is kept for their next redaction, most recently redacted last. */
const REMEMBERED_RUNS = 64;

/**
 * The exchanges' share of the last redaction of each run (by run id). A walk is saved after each step, one
 * exchange longer: its next redaction redoes only what changed (see `redactGrowing`). An exchange is known by
 * identity, which is why a run's exchanges are `Frozen`.
 */
const shares = new Map<string, ExchangesShare>();

/** `redactRun` in the pieces a store keeps (see `RedactedRun`). */
export function redactRunInParts(run: Frozen<Run>, known: KnownSecrets = {}): RedactedRun {
	// The redaction only reads the run: it builds new objects for every part it redacts.
	const { redacted, share } = redactGrowing(run as Run, known, shares.get(run.id));
	setRecent(shares, run.id, share, REMEMBERED_RUNS);
	return redacted;
}

export function redactRun(run: Frozen<Run>, known: KnownSecrets = {}): Run {
	return assembleRun(redactRunInParts(run, known));
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What was redacted, for a person: "redacted 2 cookies", "redacted the client secret (1 place)". */
export function describeRedactions(redactions: Redaction[]): string[] {
	const counts = new Map<string, number>();
	for (const r of redactions) counts.set(r.what, (counts.get(r.what) ?? 0) + 1);
	return [...counts].map(([what, n]) => {
		if (what === WHAT.cookie) return `redacted ${plural(n, 'cookie')}`;
		if (what === WHAT.code)
			return `kept the grant code visible (${plural(n, 'place')}): it is single use and short-lived, and the diagnosis needs it`;
		return `redacted the ${what} (${plural(n, 'place')})`;
	});
}
