/**
 * The link linter: what is wrong (or merely unusual) with an authorisation link, each finding tied to its section
 * of the interface and saying how to fix it. Works on the raw text, so it sees what the service will see.
 *
 * A finding never contains the client secret's value: it names where the secret was found, never what it is.
 *
 * The rules: the link's host, path and fragment here; its parameters in lint-params.ts; the client secret in
 * lint-secret.ts; the sandbox's registration, when given, in lint-registration.ts. What they share (a finding, the
 * link under lint) is in lint-rule.ts.
 */
import { SECTIONS, SUPERGROUP_VALUES, isSupergroup } from '$lib/protocol';
import { parseHttpUrl, uriParts } from '../../http/encoding';
import { decodeQueryComponent, splitRawQuery } from '../../http/form';
import {
	countryRule,
	duplicateRule,
	redirectEncodingRule,
	redirectTargetRule,
	requiredRules,
	responseTypeRule,
	unusedParamRule
} from './lint-params';
import { registrationRule } from './lint-registration';
import type { Finding, LintContext, Rule, Severity } from './lint-rule';
import { hideValues, secretParamRule, secretParamValues, secretValueFindings, secretValueRule } from './lint-secret';

export type { Finding, LintContext, RegisteredClient, Registration, Severity } from './lint-rule';
export { SECRET_VALUE_FINDING } from './lint-secret';

const ACCOUNTS_PATHS = /\/oauth\/token\/?$|\/api\/v\d+\/me\.json$/;

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
	registrationRule,
	redirectEncodingRule,
	redirectTargetRule,
	secretParamRule,
	secretValueRule,
	unusedParamRule,
	duplicateRule,
	fragmentRule
];
