/**
 * The link checked against the built-in sandbox's registration (passed in as data, LintContext.registration): what
 * the sandbox already knows it will refuse, said before the link is opened, with the registered values shown. Only
 * links to the sandbox's authorisation host are checked; another target's registration is not known here.
 */
import { SECTIONS, registeredPart, sandboxChoice } from '$lib/protocol';
import { parseHttpUrl } from '../../http/encoding';
import { param, serviceAnswer, type Finding, type RegisteredClient, type Registration, type Rule } from './lint-rule';

const listed = (values: readonly string[]) => (values.length > 0 ? values.map((v) => `\`${v}\``).join(', ') : 'none');

function toSandbox(url: URL, registration: Registration): boolean {
	const sandbox = parseHttpUrl(registration.authUrl);
	return sandbox.ok && sandbox.url.origin === url.origin;
}

function unknownClient(clientId: string, registration: Registration): Finding {
	return {
		id: 'client-not-registered',
		severity: 'error',
		message: `No client \`${clientId}\` is registered in the sandbox workspace “${registration.workspace}”. ${serviceAnswer('auth-invalid-client')}`,
		section: SECTIONS.client,
		fix: `Use a client ID of the workspace: ${listed(registration.clients.map((c) => c.clientId))}. Register a new client on the Sandbox page.`
	};
}

function redirectFinding(client: RegisteredClient, redirectUri: string): Finding[] {
	if (!URL.canParse(redirectUri)) return []; // redirectTargetRule says what is wrong with it
	const given = registeredPart(redirectUri);
	if (client.redirectUris.some((r) => registeredPart(r) === given)) return [];
	return [
		{
			id: 'redirect-uri-not-registered',
			severity: 'error',
			message: `The redirect URI \`${given}\` is not registered for \`${client.clientId}\`. Registered: ${listed(client.redirectUris)}. ${serviceAnswer('auth-invalid-redirect-uri')}`,
			section: SECTIONS.client,
			fix: 'Use a registered redirect URI (only the part before `?` is compared: scheme, host, port and path), or register this one for the client on the Sandbox page.'
		}
	];
}

function countryFinding(client: RegisteredClient, country: string): Finding[] {
	if (client.countries.some((c) => c.toLowerCase() === country.toLowerCase())) return [];
	return [
		{
			id: 'country-not-on-plan',
			severity: 'error',
			message: `The country \`${country}\` is not on \`${client.clientId}\`'s plan, which covers: ${listed(client.countries)}. ${sandboxChoice('country-outside-plan').sandbox}`,
			section: SECTIONS.client,
			fix: `Send one of the plan's countries (${listed(client.countries)}), or add this one to the client on the Sandbox page.`
		}
	];
}

export const registrationRule: Rule = (link) => {
	const { registration } = link.context;
	if (!registration || !toSandbox(link.url, registration)) return [];
	const clientId = param(link, 'client_id')?.value;
	if (!clientId) return []; // requiredRules says it is missing
	const client = registration.clients.find((c) => c.clientId === clientId);
	if (!client) return [unknownClient(clientId, registration)];
	const redirectUri = param(link, 'redirect_uri')?.value;
	const country = param(link, 'country')?.value;
	return [...(redirectUri ? redirectFinding(client, redirectUri) : []), ...(country ? countryFinding(client, country) : [])];
};
