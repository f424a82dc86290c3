/**
 * "Check a link": the walk's linter run on a link pasted from a customer's application. Runs in the browser: the
 * link stays in the page's URL fragment and is never sent to the server. Besides the interface's rules it looks for
 * the values of secrets the page may know (the sandbox demo client's, which is public), naming them but never
 * showing them, and checks a link to the sandbox against its registration when the page was given it.
 */
import { replaceForms } from '../../http/secrets';
import { MASK } from '../../http/exchange';
import { SECRET_VALUE_FINDING, lintLink, type Finding, type Registration } from './lint';

/** Longer than any link a browser keeps in its address bar; a longer one is refused with a message. */
export const MAX_CHECKED_LINK = 8192;

/** A secret the explorer holds, and how a finding names it. */
export interface KnownSecret {
	value: string | undefined;
	whose: string;
}

/** `shown`: the link as the page may show it back, with the value of every known secret masked. */
export type LinkCheck = { ok: true; findings: Finding[]; shown: string } | { ok: false; message: string };

/** `registration`: the sandbox's, when the session may see it; a link to the sandbox is checked against it. */
export function checkLink(link: string, secrets: KnownSecret[], registration: Registration | null = null): LinkCheck {
	if (link.length > MAX_CHECKED_LINK) return { ok: false, message: `The link is ${link.length} characters long; at most ${MAX_CHECKED_LINK} are checked.` };
	const known = secrets.filter((s): s is { value: string; whose: string } => Boolean(s.value));
	const unique = known.filter((s, i) => known.findIndex((t) => t.value === s.value) === i);
	const hideAll = (text: string) => unique.reduce((acc, s) => replaceForms(acc, s.value, MASK), text);
	const findings = lintLink(link, registration ? { registration } : {})
		.filter((f) => f.id !== SECRET_VALUE_FINDING)
		.map((f) => ({ ...f, message: hideAll(f.message), fix: hideAll(f.fix) }));
	// One finding per known secret whose value is somewhere in the link, naming whose secret it is.
	const secretFindings = unique.flatMap((secret) =>
		lintLink(link, { secret: secret.value })
			.filter((f) => f.id === SECRET_VALUE_FINDING)
			.map((f) => ({
				...f,
				id: `${SECRET_VALUE_FINDING}-${unique.indexOf(secret)}`,
				message: hideAll(f.message.replace("The client secret's value", `The value of ${secret.whose}`))
			}))
	);
	return { ok: true, findings: [...secretFindings, ...findings], shown: hideAll(link) };
}
