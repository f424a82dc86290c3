/**
 * The link linter: what is wrong (or merely unusual) with an authorisation link, each finding tied to its section
 * of the interface and saying how to fix it. Works on the raw text, so it sees what the service will see.
 *
 * A finding never contains the client secret's value: it names where the secret was found, never what it is.
 */
import {
	AUTHORISATION_PARAMETERS,
	SECTIONS,
	SUPERGROUP_VALUES,
	UK_COUNTRY,
	authorisationMessage,
	checkCountry,
	errorCause,
	isSupergroup,
	type AuthorisationErrorId,
	type TokenParameter
} from '$lib/protocol';
import { parseHttpUrl, uriParts } from '../http/encoding';
import { containsForm, replaceForms } from '../http/secrets';
import { decodeQueryComponent, splitRawQuery, type RawQueryParam } from '../http/form';
import { MASK } from '../http/exchange';

export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
	id: string;
	severity: Severity;
	message: string;
	/** Section of the interface, from SECTIONS. */
	section: string;
	fix: string;
}

export interface LintContext {
	authUrl?: string;
	accountsUrl?: string;
	/** The client secret, when the linter runs where it is known (the server). Only searched for, never shown. */
	secret?: string;
}

/** The parameters the interface defines for the link (4.1), plus the two it says are not used (5.6). */
const UNUSED_PARAMS = ['state', 'scope'] as const;
const KNOWN_PARAMS: readonly string[] = [...AUTHORISATION_PARAMETERS, ...UNUSED_PARAMS];

/** Characters that, left unencoded in the redirect URI's value, show it was not encoded as a URI component. */
const UNENCODED_URI_CHARS = /[:/?=]/;

const ACCOUNTS_PATHS = /\/oauth\/token\/?$|\/api\/v\d+\/me\.json$/;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** What the service will show for a 7.1 row, quoted from the table so the linter and the sandbox say the same thing. */
function serviceAnswer(rowId: AuthorisationErrorId): string {
	return `The service will answer "${authorisationMessage(rowId)}"`;
}

interface LinkUnderLint {
	raw: string;
	url: URL;
	params: RawQueryParam[];
	context: LintContext;
}

type Rule = (link: LinkUnderLint) => Finding[];

function param(link: LinkUnderLint, name: string): RawQueryParam | undefined {
	return link.params.find((p) => p.name === name);
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export function lintLink(url: string, context: LintContext = {}): Finding[] {
	const raw = url.trim();
	const parsed = parseHttpUrl(raw);
	const findings = parsed.ok
		? RULES.flatMap((rule) => rule({ raw, url: parsed.url, params: splitRawQuery(uriParts(raw).query), context }))
		: [unparseableFinding(parsed.reason), ...secretValueFindings(raw, context)];
	const hidden = [context.secret ?? '', ...secretParamValues(raw)].filter((v) => v !== '');
	return findings
		.map((finding) => hideValues(finding, hidden))
		.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
}

function unparseableFinding(reason: string): Finding {
	return {
		id: 'unparseable',
		severity: 'error',
		message: `The link cannot be read as a URL: ${reason}.`,
		section: SECTIONS.authorisationPage,
		fix: 'Build the link as {auth_url}/sso/{supergroup}?response_type=code&client_id=…&redirect_uri=…&country=…'
	};
}

/** Values of `client_secret` parameters in the link and in its redirect URI: never repeated in a finding. */
function secretParamValues(raw: string): string[] {
	const params = splitRawQuery(uriParts(raw).query);
	const redirect = params.find((p) => p.name === 'redirect_uri')?.value ?? '';
	return [...params, ...splitRawQuery(uriParts(redirect).query)]
		.filter((p) => p.name === CLIENT_SECRET_PARAM)
		.map((p) => p.value);
}

/** A finding with every form of the given values replaced by the mask (messages quote parts of the link). */
function hideValues(finding: Finding, values: string[]): Finding {
	const hide = (text: string) => values.reduce((acc, value) => replaceForms(acc, value, MASK), text);
	return { ...finding, message: hide(finding.message), fix: hide(finding.fix) };
}

const hostRule: Rule = ({ url, context }) => {
	const accountsOrigin = context.accountsUrl ? originOf(context.accountsUrl) : undefined;
	if (url.origin === accountsOrigin || ACCOUNTS_PATHS.test(url.pathname)) {
		return [
			{
				id: 'accounts-host',
				severity: 'error',
				message:
					'The link points at the accounts host (the token and me.json endpoints), not the authorisation host. The browser must go to the authorisation page.',
				section: SECTIONS.authorisationPage,
				fix: 'Send the browser to {auth_url}/sso/{supergroup}. The accounts host ({accounts_url}) is called only from your server, to exchange the code and read me.json.'
			}
		];
	}
	const authOrigin = context.authUrl ? originOf(context.authUrl) : undefined;
	if (authOrigin !== undefined && url.origin !== authOrigin) {
		return [
			{
				id: 'other-host',
				severity: 'warning',
				message: `The link points at ${url.origin}, not at the authorisation host of the chosen target (${authOrigin}).`,
				section: SECTIONS.authorisationPage,
				fix: `Start the link with the target's auth_url, ${authOrigin}.`
			}
		];
	}
	return [];
};

function originOf(text: string): string | undefined {
	const parsed = parseHttpUrl(text);
	return parsed.ok ? parsed.url.origin : undefined;
}

const pathRule: Rule = ({ url }) => {
	if (ACCOUNTS_PATHS.test(url.pathname)) return []; // hostRule already says what is wrong
	const match = /\/sso\/([^/]+)$/.exec(url.pathname);
	if (!match?.[1]) {
		return [
			{
				id: 'path-not-sso',
				severity: 'error',
				message: `The link's path is ${url.pathname}; the authorisation page is at /sso/{supergroup}.`,
				section: SECTIONS.authorisationPage,
				fix: `Use the path /sso/ followed by one of ${SUPERGROUP_VALUES.join(', ')}.`
			}
		];
	}
	const supergroup = decodeQueryComponent(match[1]);
	if (isSupergroup(supergroup)) return [];
	const lower = supergroup.toLowerCase();
	return [
		{
			id: 'unknown-supergroup',
			severity: 'error',
			message: `The supergroup in the path, "${supergroup}", is not one of the four: ${SUPERGROUP_VALUES.join(', ')}.`,
			section: SECTIONS.supergroups,
			fix: isSupergroup(lower)
				? `Write it in lower case: /sso/${lower}.`
				: `Use one of the API values of 2.5 as the path segment: ${SUPERGROUP_VALUES.join(', ')}.`
		}
	];
};

const responseTypeRule: Rule = (link) => {
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

const requiredRules: Rule = (link) => {
	const missing = (name: string) => {
		const value = param(link, name)?.value;
		return value === undefined || value === '';
	};
	const findings: Finding[] = [];
	if (missing('client_id'))
		findings.push({
			id: 'client-id-missing',
			severity: 'error',
			message: `The link has no \`client_id\`. ${serviceAnswer('auth-invalid-client')}`,
			section: SECTIONS.authorisationPage,
			fix: errorCause('auth-invalid-client', 'missing').fix
		});
	if (missing('redirect_uri'))
		findings.push({
			id: 'redirect-uri-missing',
			severity: 'error',
			message: `The link has no \`redirect_uri\`. ${serviceAnswer('auth-invalid-redirect-uri')}`,
			section: SECTIONS.authorisationPage,
			fix: errorCause('auth-invalid-redirect-uri', 'missing').fix
		});
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

const countryRule: Rule = (link) => {
	const value = param(link, 'country')?.value;
	if (value === undefined || value === '') return []; // requiredRules says so
	const check = checkCountry(value);
	if (check.ok) return [];
	return [{ ...COUNTRY_FINDINGS[check.reason](value, check.suggestion), section: SECTIONS.authorisationPage }];
};

/** Parameters right after an unencoded `redirect_uri` that the interface does not define: pieces of its query. */
function leakedParams(params: RawQueryParam[], redirectIndex: number): string[] {
	const leaked: string[] = [];
	for (const p of params.slice(redirectIndex + 1)) {
		if (KNOWN_PARAMS.includes(p.name)) break;
		leaked.push(p.name);
	}
	return leaked;
}

const redirectEncodingRule: Rule = ({ params }) => {
	const index = params.findIndex((p) => p.name === 'redirect_uri');
	const redirect = params[index];
	if (!redirect || !UNENCODED_URI_CHARS.test(redirect.rawValue)) return [];
	const leaked = redirect.rawValue.includes('?') ? leakedParams(params, index) : [];
	const fix =
		'Encode the whole redirect URI as a URI component (encodeURIComponent, or URLSearchParams when building the query), so `:`, `/`, `?`, `&` and `=` become %3A, %2F, %3F, %26 and %3D.';
	if (leaked.length > 0) {
		const names = leaked.map((n) => `\`${n}\``).join(', ');
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

const redirectTargetRule: Rule = (link) => {
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

const CLIENT_SECRET_PARAM = 'client_secret' satisfies TokenParameter;

/** The finding only the server can make, because only it knows the secret: its value somewhere in the link. */
export const SECRET_VALUE_FINDING = 'client-secret-value';

/** Where a `client_secret` parameter sits: in the link itself and/or inside its redirect URI. */
function secretParamPlaces(link: LinkUnderLint): string[] {
	const places: string[] = [];
	if (param(link, CLIENT_SECRET_PARAM)) places.push('as a parameter of the link');
	const redirect = param(link, 'redirect_uri')?.value ?? '';
	if (splitRawQuery(uriParts(redirect).query).some((p) => p.name === CLIENT_SECRET_PARAM))
		places.push('as a parameter of the redirect URI');
	return places;
}

const SECRET_FIX =
	'Remove the client secret from the link. It is sent only from your server to the token endpoint; if it was ever in a link a browser saw, ask for a new secret.';

const secretParamRule: Rule = (link) =>
	secretParamPlaces(link).map((place) => ({
		id: 'client-secret-parameter',
		severity: 'error' as const,
		message: `The link carries \`client_secret\` ${place}. Anything in the link is visible to the user, their browser history and the service's logs.`,
		section: SECTIONS.client,
		fix: SECRET_FIX
	}));

/** A URI without one of its query parameters, so a secret already reported as that parameter is reported once. */
function withoutParam(uri: string, name: string): string {
	const { scheme, authority, path, query } = uriParts(uri);
	const rest = splitRawQuery(query).filter((p) => p.name !== name);
	return `${scheme}://${authority}${path}?${rest.map((p) => `${p.rawName}=${p.rawValue}`).join('&')}`;
}

/**
 * The secret's value anywhere in the link, raw or decoded (once, or twice for what sits inside the redirect URI),
 * outside the `client_secret` parameters that secretParamRule reports. Works on unparseable links too.
 */
function secretValueFindings(raw: string, context: LintContext): Finding[] {
	const secret = context.secret;
	if (!secret) return [];
	const mentions = (text: string) => {
		const once = decodeQueryComponent(text);
		return [text, once, decodeQueryComponent(once)].some((t) => containsForm(t, secret));
	};
	const places: string[] = [];
	if (mentions(raw.replace(/\?[^#]*/, ''))) places.push('the address');
	for (const p of splitRawQuery(uriParts(raw).query)) {
		if (p.name === CLIENT_SECRET_PARAM) continue;
		const value = p.name === 'redirect_uri' ? withoutParam(p.value, CLIENT_SECRET_PARAM) : p.rawValue;
		if (mentions(p.rawName) || mentions(value)) places.push(`the \`${p.name}\` parameter`);
	}
	if (places.length === 0) return [];
	return [
		{
			id: SECRET_VALUE_FINDING,
			severity: 'error',
			message: `The client secret's value appears in ${places.join(', ')}.`,
			section: SECTIONS.client,
			fix: SECRET_FIX
		}
	];
}

const secretValueRule: Rule = (link) => secretValueFindings(link.raw, link.context);

const unusedParamRule: Rule = (link) =>
	UNUSED_PARAMS.filter((name) => param(link, name)).map((name) => ({
		id: `${name}-parameter`,
		severity: 'info' as const,
		message:
			name === 'state'
				? 'The link carries `state`, which the interface does not use (5.6): the service ignores it and does not send it back on the redirect. Harmless, but a client library that checks `state` on return will reject every sign-in.'
				: 'The link carries `scope`, which the interface does not use (5.6): the service ignores it. Harmless.',
		section: SECTIONS.authentication,
		fix:
			name === 'state'
				? 'Either drop `state`, or keep it and tell your client library to skip its `state` check on the redirect (protect the sign-in another way, e.g. a SameSite session cookie).'
				: 'Drop `scope`, or leave it: it changes nothing.'
	}));

const duplicateRule: Rule = ({ params }) => {
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

const fragmentRule: Rule = ({ raw }) =>
	raw.includes('#')
		? [
				{
					id: 'link-fragment',
					severity: 'warning',
					message:
						'The link contains `#`. Everything after it is a fragment: the browser keeps it and never sends it to the service.',
					section: SECTIONS.authorisationPage,
					fix: 'Remove the fragment. A `#` inside the redirect URI must be encoded (%23), like the rest of it.'
				}
			]
		: [];

const RULES: Rule[] = [
	hostRule,
	pathRule,
	responseTypeRule,
	requiredRules,
	countryRule,
	redirectEncodingRule,
	redirectTargetRule,
	secretParamRule,
	secretValueRule,
	unusedParamRule,
	duplicateRule,
	fragmentRule
];
