/**
 * The link linter's rules for its query parameters: each required one present and valid (response_type,
 * client_id, redirect_uri, country), the redirect URI encoded and pointing somewhere sensible, and parameters
 * the interface does not use or that appear twice.
 */
import { AUTHORISATION_PARAMETERS, SECTIONS, UK_COUNTRY, checkCountry, errorCause } from '$lib/protocol';
import type { RawQueryParam } from '../../http/form';
import { param, serviceAnswer, type Finding, type Rule } from './lint-rule';

/** The parameters the interface defines for the link (4.1), plus the two it says are not used (5.6). */
const UNUSED_PARAMS = ['state', 'scope'] as const;
const KNOWN_PARAMS: readonly string[] = [...AUTHORISATION_PARAMETERS, ...UNUSED_PARAMS];

/** Characters that, left unencoded in the redirect URI's value, show it was not encoded as a URI component. */
const UNENCODED_URI_CHARS = /[:/?=]/;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export const responseTypeRule: Rule = (link) => {
	const value = param(link, 'response_type')?.value;
	if (value === 'code') return [];
	return [
		{
			id: value === undefined || value === '' ? 'response-type-missing' : 'response-type-not-code',
			severity: 'error',
			message:
				value === undefined || value === ''
					? `The link has no \`response_type\`. ${serviceAnswer('auth-unsupported-response-type')}`
					: `\`response_type\` is "${value}"; the only supported value is \`code\`. ${serviceAnswer('auth-unsupported-response-type')}`,
			section: SECTIONS.authorisationPage,
			fix: errorCause('auth-unsupported-response-type', 'not-code').fix
		}
	];
};

/** A missing `client_id` or `redirect_uri`: the service answers with the row of 7.1 for that parameter. */
function missingParamFinding(name: string, rowId: 'auth-invalid-client' | 'auth-invalid-redirect-uri'): Finding {
	return {
		id: `${name.replace('_', '-')}-missing`,
		severity: 'error',
		message: `The link has no \`${name}\`. ${serviceAnswer(rowId)}`,
		section: SECTIONS.authorisationPage,
		fix: errorCause(rowId, 'missing').fix
	};
}

export const requiredRules: Rule = (link) => {
	const missing = (name: string) => {
		const value = param(link, name)?.value;
		return value === undefined || value === '';
	};
	const findings: Finding[] = [];
	if (missing('client_id')) findings.push(missingParamFinding('client_id', 'auth-invalid-client'));
	if (missing('redirect_uri')) findings.push(missingParamFinding('redirect_uri', 'auth-invalid-redirect-uri'));
	if (missing('country'))
		findings.push({
			id: 'country-missing',
			severity: 'error',
			message: 'The link has no `country`; it is required.',
			section: SECTIONS.authorisationPage,
			fix: `Add \`country\`: \`${UK_COUNTRY}\` for the United Kingdom, otherwise the ISO 3166 two-letter code in lower case.`
		});
	return findings;
};

const COUNTRY_FINDINGS = {
	'gb-not-uk': (value: string) => ({
		id: 'country-gb',
		severity: 'error' as const,
		message: `\`country\` is "${value}". ISO's code for the United Kingdom is gb, but the interface asks for \`${UK_COUNTRY}\`.`,
		fix: `Send \`country=${UK_COUNTRY}\`.`
	}),
	'not-lower-case': (value: string, suggestion?: string) => ({
		id: 'country-case',
		severity: 'warning' as const,
		message: `\`country\` is "${value}", in upper case; the interface's codes are lower case.`,
		fix: `Send \`country=${suggestion ?? value.toLowerCase()}\`.`
	}),
	'not-iso': (value: string) => ({
		id: 'country-not-iso',
		severity: 'error' as const,
		message: `\`country\` is "${value}", which is not \`${UK_COUNTRY}\` or an ISO 3166 two-letter country code.`,
		fix: `Send \`${UK_COUNTRY}\` for the United Kingdom, otherwise the two-letter ISO 3166 code (e.g. ie, fr, us).`
	})
};

export const countryRule: Rule = (link) => {
	const value = param(link, 'country')?.value;
	if (value === undefined || value === '') return []; // requiredRules says so
	const check = checkCountry(value);
	if (check.ok) return [];
	return [{ ...COUNTRY_FINDINGS[check.reason](value, check.suggestion), section: SECTIONS.authorisationPage }];
};

/** Parameters right after an unencoded `redirect_uri` that the interface does not define: pieces of its query. */
export function leakedParams(params: RawQueryParam[], redirectIndex: number): RawQueryParam[] {
	const leaked: RawQueryParam[] = [];
	for (const p of params.slice(redirectIndex + 1)) {
		if (KNOWN_PARAMS.includes(p.name)) break;
		leaked.push(p);
	}
	return leaked;
}

export const ENCODE_REDIRECT_URI =
	'Encode the whole redirect URI as a URI component (encodeURIComponent, or URLSearchParams when building the query), so `:`, `/`, `?`, `&` and `=` become %3A, %2F, %3F, %26 and %3D.';

export const redirectEncodingRule: Rule = ({ params }) => {
	const index = params.findIndex((p) => p.name === 'redirect_uri');
	const redirect = params[index];
	if (!redirect || !UNENCODED_URI_CHARS.test(redirect.rawValue)) return [];
	const leaked = redirect.rawValue.includes('?') ? leakedParams(params, index) : [];
	const fix = ENCODE_REDIRECT_URI;
	if (leaked.length > 0) {
		const names = leaked.map((p) => `\`${p.name}\``).join(', ');
		return [
			{
				id: 'redirect-uri-not-encoded',
				severity: 'error',
				message: `\`redirect_uri\` is not encoded as a URI component, and its own query string split the link: ${names} became ${leaked.length === 1 ? 'a parameter' : 'parameters'} of the link instead of part of the redirect URI. The service sees the redirect URI as "${redirect.value}".`,
				section: SECTIONS.redirectExtras,
				fix
			}
		];
	}
	return [
		{
			id: 'redirect-uri-not-encoded',
			severity: 'warning',
			message:
				'`redirect_uri` is not encoded as a URI component (it contains unencoded `:`, `/`, `?` or `=`). It may still arrive intact here, but extra query parameters on it would split the link.',
			section: SECTIONS.redirectExtras,
			fix
		}
	];
};

export const redirectTargetRule: Rule = (link) => {
	const value = param(link, 'redirect_uri')?.value;
	if (value === undefined || value === '') return [];
	let redirect: URL;
	try {
		redirect = new URL(value);
	} catch {
		const twice = /^[a-z][a-z0-9+.-]*%3A/i.test(value);
		return [
			{
				id: 'redirect-uri-not-absolute',
				severity: 'error',
				message: twice
					? `\`redirect_uri\` decodes to "${value}", which is still encoded: it was encoded twice.`
					: `\`redirect_uri\` decodes to "${value}", which is not an absolute URI.`,
				section: SECTIONS.authorisationPage,
				fix: twice ? 'Encode the redirect URI once.' : errorCause('auth-invalid-redirect-uri', 'missing').fix
			}
		];
	}
	const findings: Finding[] = [];
	if (redirect.searchParams.has('code'))
		findings.push({
			id: 'redirect-uri-code',
			severity: 'error',
			message:
				'The redirect URI carries its own `code` parameter. The service overwrites it with the grant code on the way back, so its value is lost.',
			section: SECTIONS.redirectExtras,
			fix: 'Rename that extra parameter: `code` is reserved for the grant code.'
		});
	if (redirect.protocol === 'http:' && !LOCAL_HOSTS.has(redirect.hostname))
		findings.push({
			id: 'redirect-uri-http',
			severity: 'warning',
			message: `The redirect URI uses plain http on ${redirect.hostname}. The grant code would travel unencrypted.`,
			section: SECTIONS.client,
			fix: 'Register and use an https redirect URI; plain http is only reasonable for localhost during development.'
		});
	return findings;
};

/** How to get past a client library's `state` check, which the service never answers. */
export const STATE_CHECK_FIX =
	'Either drop `state`, or keep it and tell your client library to skip its `state` check on the redirect (protect the sign-in another way, e.g. a SameSite session cookie).';

/**
 * `state` and `scope`, which the interface does not use (5.6). `state` is a warning: the service never sends it back,
 * so a client library that checks it on the redirect (Authlib and requests-oauthlib add it by default, passport-oauth2
 * with `state: true`) fails every sign-in with a state mismatch. `scope` changes nothing.
 */
export const unusedParamRule: Rule = (link) =>
	UNUSED_PARAMS.filter((name) => param(link, name)).map((name) =>
		name === 'state'
			? {
					id: 'state-parameter',
					severity: 'warning' as const,
					message:
						'The link carries `state`, which the interface does not use (5.6): the service ignores it and never sends it back on the redirect. A client library that checks `state` on return rejects every sign-in with a state mismatch: Authlib and requests-oauthlib add `state` by default (MismatchingStateError), passport-oauth2 with `state: true` ("Unable to verify authorization request state").',
					section: SECTIONS.authentication,
					fix: STATE_CHECK_FIX
				}
			: {
					id: 'scope-parameter',
					severity: 'info' as const,
					message:
						'The link carries `scope`, which the interface does not use (5.6): the service ignores it. Harmless; generic OAuth client libraries add it from their configuration.',
					section: SECTIONS.authentication,
					fix: 'Drop `scope`, or leave it: it changes nothing.'
				}
	);

export const duplicateRule: Rule = ({ params }) => {
	const seen = new Set<string>();
	const repeated = new Set<string>();
	for (const p of params) (seen.has(p.name) ? repeated : seen).add(p.name);
	return [...repeated].map((name) => ({
		id: 'duplicate-parameter',
		severity: 'warning' as const,
		message: `\`${name}\` appears more than once in the link; which one the service reads is not described.`,
		section: SECTIONS.authorisationPage,
		fix: `Send \`${name}\` once. If the second one came from the redirect URI, encode the redirect URI as a URI component.`
	}));
};
