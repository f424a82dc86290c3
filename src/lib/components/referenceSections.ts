/**
 * The interface's sections as the reference page lists them, so findings and annotations that cite a section
 * (`SECTIONS` in the protocol model) land on an anchor: `/reference#section-<number>`.
 */
import { SECTIONS } from '$lib/protocol/limits';
import { sectionAnchor } from '$lib/flow/section-anchor';

type SectionKey = keyof typeof SECTIONS;

const TITLES: Record<SectionKey, string> = {
	client: 'Client registration',
	code: 'Authorisation grant code',
	tokenResponse: 'Token response',
	userInfo: 'User verification information',
	supergroups: 'Consumer supergroups',
	errorBodies: 'Error bodies',
	states: 'States and transitions',
	authorisationPage: 'Authorisation page: GET {auth_url}/sso/{supergroup}',
	redirectExtras: 'Extra parameters on the redirect URI',
	tokenEndpoint: 'Token endpoint: POST {accounts_url}/oauth/token',
	meEndpoint: 'User information: GET {accounts_url}/api/v3/me.json',
	authentication: 'Authentication',
	errorsAuthorisation: 'Errors of the authorisation page',
	errorsToken: 'Errors of the token endpoint',
	errorsMe: 'Errors of the user-information endpoint',
	limits: 'Limits'
};

export interface ReferenceSection {
	number: string;
	title: string;
	anchor: string;
}

export { sectionAnchor };

/** Every section the protocol model cites, in the interface's order. */
export const REFERENCE_SECTIONS: readonly ReferenceSection[] = (Object.keys(SECTIONS) as SectionKey[]).map((key) => ({
	number: SECTIONS[key],
	title: TITLES[key],
	anchor: sectionAnchor(SECTIONS[key])
}));
