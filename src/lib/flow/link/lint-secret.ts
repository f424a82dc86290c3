/**
 * The client secret in a link: a `client_secret` parameter (in the link or its redirect URI), or, where the secret
 * is known (the server), its value anywhere. A finding names where the secret is, never what it is.
 */
import { SECTIONS, type TokenParameter } from '$lib/protocol';
import { uriParts } from '../../http/encoding';
import { MASK } from '../../http/exchange';
import { decodeQueryComponent, splitRawQuery } from '../../http/form';
import { containsForm, replaceForms } from '../../http/secrets';
import { param, type Finding, type LinkUnderLint, type LintContext, type Rule } from './lint-rule';

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

export const secretParamRule: Rule = (link) =>
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
export function secretValueFindings(raw: string, context: LintContext): Finding[] {
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

export const secretValueRule: Rule = (link) => secretValueFindings(link.raw, link.context);

/** Values of `client_secret` parameters in the link and in its redirect URI: never repeated in a finding. */
export function secretParamValues(raw: string): string[] {
	const params = splitRawQuery(uriParts(raw).query);
	const redirect = params.find((p) => p.name === 'redirect_uri')?.value ?? '';
	return [...params, ...splitRawQuery(uriParts(redirect).query)]
		.filter((p) => p.name === CLIENT_SECRET_PARAM)
		.map((p) => p.value);
}

/** A finding with every form of the given values replaced by the mask (messages quote parts of the link). */
export function hideValues(finding: Finding, values: string[]): Finding {
	const hide = (text: string) => values.reduce((acc, value) => replaceForms(acc, value, MASK), text);
	return { ...finding, message: hide(finding.message), fix: hide(finding.fix) };
}
