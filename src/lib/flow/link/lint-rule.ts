/** What the link linter's rules share: a finding, what a rule reads, and the service's answer for a 7.1 row. */
import { authorisationMessage, type AuthorisationErrorId } from '$lib/protocol';
import type { RawQueryParam } from '../../http/form';

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
	/** What the built-in sandbox has registered, when the session may read it: links to it are checked against it. */
	registration?: Registration;
}

/**
 * The clients of a sandbox workspace, as data for the linter (the page receives it; nothing secret is in it). A link
 * to `authUrl` is checked against them: the sandbox would refuse an unknown client, an unregistered redirect URI and
 * a country off the plan, each on a page outside the explorer.
 */
export interface Registration {
	/** The sandbox's authorisation host. */
	authUrl: string;
	/** The workspace's name, as findings name it. */
	workspace: string;
	clients: readonly RegisteredClient[];
}

export interface RegisteredClient {
	clientId: string;
	redirectUris: readonly string[];
	countries: readonly string[];
}

/** What the service will show for a 7.1 row, quoted from the table so the linter and the sandbox say the same thing. */
export function serviceAnswer(rowId: AuthorisationErrorId): string {
	return `The service will answer "${authorisationMessage(rowId)}"`;
}

export interface LinkUnderLint {
	raw: string;
	url: URL;
	params: RawQueryParam[];
	context: LintContext;
}

export type Rule = (link: LinkUnderLint) => Finding[];

export function param(link: LinkUnderLint, name: string): RawQueryParam | undefined {
	return link.params.find((p) => p.name === name);
}
