/** Small node:http helpers for the authorisation host: form bodies, cookies, and responses with its headers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mediaType, readBodyUpTo } from '../http-common';
import type { SafeHtml } from './html';

/** Login, verify and consent forms are a few hundred bytes; anything near this is not from our pages. */
export const FORM_BODY_LIMIT = 8 * 1024;

export type FormRead =
	| { ok: true; form: URLSearchParams }
	| { ok: false; status: 400 | 413 | 415; title: string; message: string };

const tooLarge: FormRead = {
	ok: false,
	status: 413,
	title: 'Form too large',
	message: `The form sent more than ${FORM_BODY_LIMIT} bytes, which none of these pages do.`
};

/** Reads an `application/x-www-form-urlencoded` body of at most `FORM_BODY_LIMIT` bytes, UTF-8. Never rejects. */
export function readForm(req: IncomingMessage): Promise<FormRead> {
	if (mediaType(req) !== 'application/x-www-form-urlencoded') {
		req.resume();
		return Promise.resolve({
			ok: false,
			status: 415,
			title: 'Unsupported form',
			message: 'These pages accept forms sent as application/x-www-form-urlencoded only.'
		});
	}
	return readBodyUpTo(req, FORM_BODY_LIMIT).then((read): FormRead => {
		if (!read.ok) {
			return read.reason === 'too-large'
				? tooLarge
				: { ok: false, status: 400, title: 'Incomplete form', message: 'The form was not received completely.' };
		}
		try {
			const text = new TextDecoder('utf-8', { fatal: true }).decode(read.body);
			return { ok: true, form: new URLSearchParams(text) };
		} catch {
			return { ok: false, status: 400, title: 'Unreadable form', message: 'The form was not valid UTF-8 text.' };
		}
	});
}

/** The value of a field sent exactly once, else undefined (missing or repeated is never guessed at). */
export function singleField(form: URLSearchParams, name: string): string | undefined {
	const values = form.getAll(name);
	return values.length === 1 ? values[0] : undefined;
}

export function readCookie(req: IncomingMessage, name: string): string | undefined {
	for (const part of (req.headers.cookie ?? '').split(';')) {
		const eq = part.indexOf('=');
		if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
	}
	return undefined;
}

/** A browser-session cookie readable only by this host's server. */
export function sessionCookie(name: string, value: string): string {
	return `${name}=${value}; Path=/; HttpOnly; SameSite=Lax`;
}

/**
 * Headers on every response. The CSP has no `form-action`: Chromium applies it to the redirect that follows a form
 * post too, and the consent form's 303 goes to the client's redirect URI, which may be any origin.
 */
const SECURITY_HEADERS: Record<string, string> = {
	'Content-Security-Policy': "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'",
	'X-Frame-Options': 'DENY',
	'X-Content-Type-Options': 'nosniff',
	'Referrer-Policy': 'no-referrer',
	'Cache-Control': 'no-store'
};

type Headers = Record<string, string | string[]>;

export function send(res: ServerResponse, status: number, contentType: string, body: string, headers: Headers = {}): void {
	res.writeHead(status, {
		...SECURITY_HEADERS,
		'Content-Type': contentType,
		'Content-Length': Buffer.byteLength(body),
		...headers
	});
	res.end(body);
}

export function sendHtml(res: ServerResponse, status: number, page: SafeHtml, headers: Headers = {}): void {
	send(res, status, 'text/html; charset=utf-8', page.value, headers);
}

/** 303 See Other: after a form post the browser follows with a GET (Post/Redirect/Get). */
export function seeOther(res: ServerResponse, location: string, headers: Headers = {}): void {
	send(res, 303, 'text/plain; charset=utf-8', '', { Location: location, ...headers });
}
