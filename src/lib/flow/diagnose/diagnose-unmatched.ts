/**
 * Answers no row of the interface's tables describes: a request that got no complete answer (a transport failure),
 * one never sent, or a response whose status and body match no row (a redirect, a 5xx, an HTML page).
 */
import { SECTIONS, sandboxChoice } from '$lib/protocol';
import type { RecordedResponse, TransportFailure } from '../../http/exchange';
import { headerValue } from '../../http/headers';
import { readJson } from '$lib/http/json';
import type { Annotation, Target } from './diagnose-annotation';

const TRANSPORT: Record<TransportFailure['kind'], { title: string; fix: string }> = {
	refused: {
		title: 'Not sent: the target is not allowed',
		fix: "The operator's configuration (the environment variable listing allowed hosts) does not allow this host. Use the built-in sandbox, or ask the operator to add the host."
	},
	unreachable: {
		title: 'The target could not be reached',
		fix: 'Check the address (host, port, http or https) and that the target is running. The request is sent from the explorer\'s server, so the host must be reachable from there, not just from your browser.'
	},
	timeout: {
		title: 'No complete answer in time',
		fix: 'The target is down, overloaded, or a firewall is silently dropping the connection. Check it is up, then try again.'
	},
	'too-large': {
		title: 'The answer was too large',
		fix: 'The token endpoint and me.json answer with small JSON bodies, so this address is probably not the right endpoint. Check accounts_url.'
	}
};

/**
 * A request that got no complete answer. When the status line and headers came before the failure (a body cut,
 * stalled or too large), the summary says so: the target did answer, just not all of it.
 */
export function transportAnnotation({ failure, response }: { failure: TransportFailure; response: RecordedResponse | null }): Annotation {
	const { title, fix } = TRANSPORT[failure.kind];
	const waited = failure.kind === 'timeout' ? ` (waited ${Math.round(failure.timeoutMs / 1000)} s)` : '';
	const message = failure.message.replace(/\.$/, '');
	const status = response && `${response.status} ${response.statusText}`.trim();
	const summary = response
		? `The target began to answer (${status}, then ${response.body.length} characters of body) but the answer never completed${waited}: ${message}. Nothing in the interface's tables applies to an incomplete answer.`
		: `No response from the target${waited}: ${message}. Nothing in the interface's tables applies, because the service never answered.`;
	return { outcome: 'transport', title, summary, candidates: [], fix };
}

/** A request with neither a response nor a failure was never sent (a pasted command): not a failure, a next step. */
export const UNSENT: Annotation = {
	outcome: 'unsent',
	title: 'Not sent yet',
	summary: 'This request was recorded (pasted) but never sent, so nothing has answered it yet; there is nothing to diagnose.',
	candidates: [],
	fix: 'Send it, or add the response it got as evidence, to see what the service answers.'
};

type Endpoint = 'token' | 'me';

const ENDPOINT_PATH: Record<Endpoint, string> = { token: '{accounts_url}/oauth/token', me: '{accounts_url}/api/v3/me.json' };

/** A response that matches no row of the tables: say what it is and what to check. */
export function undescribedResponse(response: RecordedResponse, endpoint: Endpoint, target: Target): Annotation {
	const { status } = response;
	const type = headerValue(response.headers, 'content-type') ?? '';
	const isHtml = /html/i.test(type) || /^\s*</.test(response.body);
	const cut = response.truncated ? ' (the body was cut at the recording limit)' : '';
	const table = endpoint === 'token' ? SECTIONS.errorsToken : SECTIONS.errorsMe;
	let what: string;
	let fix: string;
	if (status >= 300 && status < 400) {
		const location = headerValue(response.headers, 'location');
		what = `The endpoint answered with a redirect${location ? ` to ${location}` : ''}. The interface does not describe redirects here.`;
		fix = `Point the request at ${ENDPOINT_PATH[endpoint]} exactly: check http versus https, the host, and any path prefix. A redirect to a login page means a proxy is in front of the API.`;
	} else if (status >= 500) {
		what = `The service failed while handling the request (${status}).`;
		fix = 'This is the service\'s fault, not usually your request\'s. Try again later; if it persists, give the operator the time of the request.';
	} else if (isHtml) {
		what = 'The answer is an HTML page, not JSON: the request probably reached a web page (the authorisation host, a login page or a proxy) instead of the accounts API.';
		fix = `Check that accounts_url is the accounts host and the path is ${ENDPOINT_PATH[endpoint]}.`;
	} else if (status === 404 || status === 405) {
		what = status === 404 ? 'Nothing was found at this address.' : 'The endpoint does not accept this method.';
		fix = `Send ${endpoint === 'token' ? 'POST' : 'GET'} to ${ENDPOINT_PATH[endpoint]}.`;
	} else {
		const json = readJson(response.body);
		what = json.ok ? 'The JSON body is not one the tables describe.' : `The body is not JSON (${json.problem}).`;
		fix = `Compare the response with section ${table}; if the target is a real deployment, ask its operator what this answer means.`;
	}
	return {
		outcome: 'error',
		title: `${status} ${response.statusText}: not in the interface's tables`.replace(/\s+:/, ':'),
		summary: `${what} No row of ${table} matches this status and body${cut}.`,
		candidates: [],
		fix,
		...(target === 'sandbox' && status === 405 ? { notDescribed: sandboxChoice('wrong-method').sandbox } : {})
	};
}
