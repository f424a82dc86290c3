/**
 * "Check a link": the walk's linter run on a link pasted from a customer's application. A read: nothing is stored,
 * nothing is sent anywhere. Runs on the server so it can also look for the values of the client secrets the
 * explorer holds (the session's, the demo client's), which it names but never shows.
 */
import { SECRET_VALUE_FINDING, lintLink, type Finding } from '$lib/flow/link/lint';
import { replaceForms } from '$lib/http/secrets';
import { MASK } from '$lib/http/exchange';

/** Longer than any link a browser keeps in its address bar; a longer one is refused with a message. */
export const MAX_CHECKED_LINK = 8192;

/** A secret the explorer holds, and how a finding names it. */
export interface KnownSecret {
	value: string | undefined;
	whose: string;
}

/** `shown`: the link as the page may show it back, with the value of every known secret masked. */
export type LinkCheck = { ok: true; findings: Finding[]; shown: string } | { ok: false; message: string };

export function checkLink(link: string, secrets: KnownSecret[]): LinkCheck {
	if (link.length > MAX_CHECKED_LINK) return { ok: false, message: `The link is ${link.length} characters long; at most ${MAX_CHECKED_LINK} are checked.` };
	const known = secrets.filter((s): s is { value: string; whose: string } => Boolean(s.value));
	const unique = known.filter((s, i) => known.findIndex((t) => t.value === s.value) === i);
	const hideAll = (text: string) => unique.reduce((acc, s) => replaceForms(acc, s.value, MASK), text);
	const findings = lintLink(link)
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
