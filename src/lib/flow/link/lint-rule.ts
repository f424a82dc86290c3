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
