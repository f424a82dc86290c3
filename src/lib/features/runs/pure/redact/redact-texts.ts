/**
 * Every text of a run that could hold a secret, visited with the place it is at ("exchange 2 (token) request
 * body"), and the guesses the redaction makes about a text's shape (a URL, a form, JSON).
 */
import type { RecordedExchange } from '$lib/flow/exchange';
import { MASK, type HttpHeader } from '$lib/http/exchange';
import { headerValue } from '$lib/http/headers';
import type { Run } from '../run';

export const LINK_PLACE = 'the authorisation link';
export const CALLBACK_PLACE = 'the callback URL';

export function exchangePlace(index: number, exchange: Pick<RecordedExchange, 'step'>): string {
	return `exchange ${index + 1} (${exchange.step})`;
}

export type Field =
	| { kind: 'url' }
	| { kind: 'header'; name: string }
	| { kind: 'body'; contentType: string }
	| { kind: 'text' };

export type TextMap = (text: string, where: string, field: Field) => string;

/** `fn` applied to every text of one part of a run that could hold a secret. */
export type PartMap<T> = (part: T, fn: TextMap) => T;

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
export const mapHead: PartMap<Run> = (run, fn) => ({
	...run,
	title: fn(run.title, 'the title', { kind: 'text' }),
	link: run.link === null ? null : fn(run.link, LINK_PLACE, { kind: 'url' }),
	callback: run.callback && { ...run.callback, url: fn(run.callback.url, CALLBACK_PLACE, { kind: 'url' }) }
});

export const mapExchangeAt =
	(index: number): PartMap<RecordedExchange> =>
	(exchange, fn) =>
		mapExchange(exchange, exchangePlace(index, exchange), fn);

/* ------------------------------------------------------------------ query strings and form bodies */

export const isMasked = (value: string) => value.includes(MASK);

export const looksLikeUrl = (text: string) => /^https?:\/\//i.test(text.trim());

/** A body of `name=value` pairs with no whitespace, as form bodies are. */
export const looksLikeForm = (body: string) => /^[^\s=&]+=\S*$/.test(body);


/** Every `[key, value]` with a string value, at any depth of a parsed JSON document. */
export function jsonStringEntries(value: unknown): [string, string][] {
	if (Array.isArray(value)) return value.flatMap(jsonStringEntries);
	if (value === null || typeof value !== 'object') return [];
	return Object.entries(value).flatMap(([k, v]): [string, string][] =>
		typeof v === 'string' ? [[k, v]] : jsonStringEntries(v)
	);
}
