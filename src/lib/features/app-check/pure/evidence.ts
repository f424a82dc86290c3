/**
 * What one check of the app saw, as data: what the app's server did (seen by the sandbox, in its request log) and
 * what the user got (the app's pages after the sandbox's redirect). Everything here is already redacted: the
 * reporters, the live page and the JUnit file show it as is. Also the pure readers that make it: a page's text
 * from its HTML, the stack-trace lines in it, and the redaction.
 */
import { MASK } from '$lib/http/exchange';
import { escapeRegExp } from '$lib/http/encoding';
import { replaceForms, SECRET_PARAMETERS } from '$lib/http/secrets';
import type { TokenInAnswer } from '$lib/flow/browser/token-advice';
import type { LinkFinding, ServerDiagnosis } from './engine';
import type { ServerCalls } from './server-calls';
import { maskSecretShapes } from './secret-shapes';

/** One main-frame page load after the sandbox sent the browser back to the app. */
export interface PageHop {
	url: string;
	status: number | null;
	/** The app's origin, the sandbox's sign-in pages, or elsewhere. */
	where: 'app' | 'sandbox' | 'other';
}

export interface UserEvidence {
	/** The app's callback URL the sandbox redirected to (code masked); null when the browser never got there. */
	callbackUrl: string | null;
	hops: PageHop[];
	/** The page the user ended on. */
	final: { url: string; status: number | null; title: string; excerpt: string } | null;
	/** The browser arrived at the sandbox's sign-in link again after the redirect, without the user asking. */
	backToSignIn: boolean;
	/** Stack-trace lines found in the app's pages (the first few). */
	stackTrace: string[];
	/** Requests the check refused because their origin is not allowed (`origin: why`). */
	blocked: string[];
	/** Where the app handed the browser an access or refresh token (a redirect, its page, its API's answer), if it did. */
	tokenHanded?: (TokenInAnswer & { url: string }) | null;
	/** A digest of the page's text with numbers and whitespace evened out, to tell two answers apart. */
	fingerprint: string;
	/**
	 * The same digest of the page's text with what the check's me.json answers said of the user taken out
	 * (pageTemplate): the app's page whoever it shows, to tell its signed-in page shown with nothing in it.
	 */
	template: string;
}

/** What the app's server did (the engine's reconstruction of the log) and why (the engine's diagnosis): engine.ts. */
export interface ServerEvidence extends ServerCalls {
	/** The flow engine's diagnosis of what the app's server did wrong, the check's own doing left out. */
	diagnosis?: ServerDiagnosis | null;
	/** The flow engine's findings about the sign-in's link, as the sandbox received it. */
	link?: LinkFinding[];
	/** The flow engine's findings about what the browser saw of the app (its pages, its page's calls): they explain a failure. */
	page?: LinkFinding[];
	/** The flow engine's fix for a sign-in loop after a cancel, naming the client library the log shows. */
	loopFix?: string;
}

export interface RuleEvidence {
	outcome: string;
	/** Whether the sandbox applied it (the app made the request it answers); null when the sandbox could not say. */
	used: boolean | null;
}

export interface AppCheckEvidence {
	user: UserEvidence;
	server: ServerEvidence;
	rule: RuleEvidence | null;
}

/* ------------------------------------------------------------------ reading pages */

const ENTITIES: Record<string, string> = { nbsp: ' ', lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", '#39': "'" };

/** The text of an HTML page, lines kept (`<br>`, block ends), tags dropped, entities decoded. Plain text passes through. */
export function htmlToText(html: string): string {
	return html
		.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '')
		.replace(/<br\s*\/?>|<\/(p|div|li|pre|h\d|tr|title)\s*>/gi, '\n')
		// `<anonymous>` is a stack frame's name, not a tag.
		.replace(/<(?!anonymous>)[^>]*>/g, '')
		.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
			if (name[0] === '#') {
				const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
				return name === '#39' ? "'" : Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
			}
			return ENTITIES[name.toLowerCase()] ?? whole;
		});
}

/** Lines of a stack trace, in the forms servers print them: Node, Python, Java/.NET, Ruby, PHP. */
const STACK_LINES = [
	/^\s*at\s.*?\(?(?:file:\/\/|node:)?[^\s()]+:\d+:\d+\)?\s*$/, // Node: at fn (file:line:col), at file:line:col
	/^\s*Traceback \(most recent call last\):?\s*$/, // Python
	/^\s*File "[^"]+", line \d+/, // Python
	/^\s*at [\w$.<>]+\([\w$]+\.(?:java|kt|scala|groovy):\d+\)\s*$/, // JVM
	/^\s*at .+ in .+:line \d+\s*$/, // .NET
	/^\s*\S+\.rb:\d+:in [`'].+'\s*$/, // Ruby
	/^\s*#\d+ \S+\.php\(\d+\): /, // PHP
	/^\s*\S+\.go:\d+ \+0x[0-9a-f]+\s*$/ // Go panic
];

const MAX_STACK_LINES = 5;

/** The stack-trace lines in a page's text (the first few, trimmed); none for a page without one. */
export function findStackTrace(text: string): string[] {
	const lines = text.split(/\r?\n/).filter((line) => STACK_LINES.some((pattern) => pattern.test(line)));
	return lines.slice(0, MAX_STACK_LINES).map((line) => line.trim().slice(0, 300));
}

/** A page's text with whitespace collapsed and numbers evened out, so two loads of one page compare equal. */
export function fingerprint(text: string): string {
	return text.replace(/\d+/g, '0').replace(/\s+/g, ' ').trim();
}

/**
 * A page's text with the values of the user that `shown` holds taken out wherever they stand as words, then
 * fingerprinted: the success page of one user and the same page rendered with no user compare equal.
 */
export function pageTemplate(text: string, shown: readonly string[]): string {
	const values = [...new Set(shown)].filter((v) => v.trim().length >= 2).sort((a, b) => b.length - a.length);
	const without = values.reduce((t, v) => t.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(v)}(?![\\p{L}\\p{N}])`, 'gu'), ''), text);
	return fingerprint(without);
}

/** The first characters of a page's text, on one line. */
export function excerpt(text: string, length = 300): string {
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length > length ? `${flat.slice(0, length)}…` : flat;
}

/* ------------------------------------------------------------------ redaction */

const SECRET_NAMES = SECRET_PARAMETERS.join('|');
const SECRET_PAIR = new RegExp(`\\b(${SECRET_NAMES})=([^&\\s"'<>#\`)]+)`, 'g');
const SECRET_JSON = new RegExp(`"(${SECRET_NAMES})"(\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'g');
const CREDENTIAL_HEADER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/g;
/** Anything that looks like a generated credential: a long run of base64url characters with letters and digits. */
const LONG_TOKEN = /(?<![A-Za-z0-9_-])(?=[A-Za-z_-]*\d)(?=[0-9_-]*[A-Za-z])[A-Za-z0-9_-]{32,}(?![A-Za-z0-9_-])/g;

/**
 * Text with every secret hidden: the `known` values (a workspace key, the admin token, a client secret) wherever
 * they appear, in every form they can be echoed in (URL, form, HTML, JSON, base64: secrets.ts),
 * the value of anything named like a secret, in any naming style (secret-shapes.ts), the interface's secret
 * parameters (`code=`, `client_secret=`, `access_token=`…) in URLs, forms and JSON, credentials after
 * Bearer or Basic, and any long credential-like run of characters (a token an app printed on its page).
 */
export function redact(text: string, known: readonly string[] = []): string {
	const scrubbed = known
		.filter((value) => value.length >= 4)
		.sort((a, b) => b.length - a.length)
		.reduce((out, value) => replaceForms(out, value, MASK), text);
	return maskSecretShapes(scrubbed, MASK)
		.replace(SECRET_PAIR, (_m, name: string) => `${name}=${MASK}`)
		.replace(SECRET_JSON, (_m, name: string, colon: string) => `"${name}"${colon}"${MASK}"`)
		.replace(CREDENTIAL_HEADER, (_m, scheme: string) => `${scheme} ${MASK}`)
		.replace(LONG_TOKEN, MASK);
}
