/**
 * The sandbox control panel's server logic (`/sandbox`): what the page shows, and what its forms do. Input goes
 * through the control API's own schemas, and clients and users are saved by its own operations (workspace-writes.ts),
 * so the panel and `POST /sandbox/...` accept exactly the same things and hold the same limits.
 * Nothing returned from here carries a client secret or a password.
 */
import { z } from 'zod';
import { OUTCOME_STAGES, durationWords } from '$lib/protocol';
import { publicClient } from '$lib/sandbox/accounts/control';
import { ClientBody, ClockBody, UserBody, realDate } from '$lib/sandbox/accounts/control-schemas';
import { writeClient, writeUser, type WriteRules } from '$lib/sandbox/accounts/workspace-writes';
import { resetToFixtures } from '$lib/sandbox/fixtures';
import type { SandboxClient, SandboxUser, SandboxWorkspace } from '$lib/sandbox/store';
import { isActiveIn } from '$lib/sandbox/verifications';
import type { ClientFormValues, Feedback, PanelClient, PanelForm, PanelLogEntry, PanelState, PanelUser, UserFormValues } from '$lib/view/panel';

/** How many of the latest requests the panel shows. */
export const LOG_SHOWN = 50;

export function panelClient(client: SandboxClient, store: SandboxWorkspace): PanelClient {
	const pending_outcomes = OUTCOME_STAGES.flatMap((stage) => store.pendingOutcome(client.client_id, stage.id) ?? []);
	return { ...publicClient(client), secret_set: client.client_secret !== '', pending_outcomes };
}

export function panelUser(user: SandboxUser, today: string): PanelUser {
	return {
		login: user.login,
		sbid_number: user.sbid_number,
		verifications: user.verifications.map((v) => ({ ...v, active: isActiveIn([v], v.supergroup, today) })),
		deletion_requested: user.deletion_requested
	};
}

export function panelState(store: SandboxWorkspace): PanelState {
	const today = store.today();
	return {
		now: store.now().toISOString(),
		today,
		clients: store.listClients().map((client) => panelClient(client, store)),
		users: store.listUsers().map((u) => panelUser(u, today))
	};
}

/** Path and query of a recorded URL, cut from its text so the query stays as recorded. */
function requestTarget(url: string): string {
	return url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/';
}

/** The latest requests to both sandbox hosts, newest first; the log masks them when they are recorded. */
export function recentRequests(store: SandboxWorkspace, limit = LOG_SHOWN): PanelLogEntry[] {
	return store.recentLog(limit).map(({ id, entry: exchange }) => {
		return {
			id,
			host: exchange.host,
			sandboxAt: exchange.sandboxAt,
			durationMs: exchange.durationMs,
			method: exchange.request.method,
			target: requestTarget(exchange.request.url),
			status: exchange.response?.status ?? null,
			request: exchange.request,
			response: exchange.response
		};
	});
}

/** Id of the newest log entry (0 for none): tells a poller whether anything changed. */
export function newestRequestId(store: SandboxWorkspace): number {
	return store.recentLog(1)[0]?.id ?? 0;
}

/** A text field of the form ('' when absent, or a file). */
function field(form: FormData, name: string): string {
	const value = form.get(name);
	return typeof value === 'string' ? value : '';
}

/** Lines of a textarea, or entries of a comma-separated list: trimmed, empty ones dropped. */
function entries(text: string, separator: RegExp): string[] {
	return text
		.split(separator)
		.map((s) => s.trim())
		.filter((s) => s !== '');
}

/** How each list field's items are named in messages. */
const ITEM_NOUN: Record<string, string> = { redirect_uris: 'line', countries: 'entry', verifications: 'row' };

/** Zod issues grouped by the form field they concern, with the line or row of list items. */
function fieldProblems(error: z.ZodError): Record<string, string> {
	const grouped: Record<string, string[]> = {};
	for (const issue of error.issues) {
		const [name, index, member] = issue.path;
		const key = name === undefined ? 'form' : String(name);
		const where =
			typeof index === 'number' ? `${ITEM_NOUN[key] ?? 'item'} ${index + 1}${member === undefined ? '' : ` (${String(member)})`}: ` : '';
		(grouped[key] ??= []).push(where + issue.message);
	}
	return Object.fromEntries(Object.entries(grouped).map(([key, messages]) => [key, messages.join('; ')]));
}

function done(form: PanelForm, message: string, subject?: string): Feedback {
	return { form, ok: true, message, fields: {}, subject };
}

function refused(form: PanelForm, message: string, fields: Record<string, string> = {}, extra: Partial<Feedback> = {}): Feedback {
	return { form, ok: false, message, fields, ...extra };
}

function notSaved(form: PanelForm, what: string, fields: Record<string, string>, extra: Partial<Feedback>): Feedback {
	const count = Object.keys(fields).length;
	return refused(form, `${what} was not saved: ${count === 1 ? 'one field needs' : `${count} fields need`} attention.`, fields, extra);
}

const NEW_CLIENT_NEEDS_SECRET = 'Enter a secret: a new client needs one. (When editing a client, leave it blank to keep the current one.)';

/** Creates or edits a client. A blank secret keeps the existing client's secret. */
export function saveClientForm(store: SandboxWorkspace, form: FormData, rules: WriteRules): Feedback {
	const values: ClientFormValues = {
		client_id: field(form, 'client_id').trim(),
		name: field(form, 'name'),
		redirect_uris: field(form, 'redirect_uris'),
		countries: field(form, 'countries'),
		verification_key: field(form, 'verification_key')
	};
	const secret = field(form, 'client_secret');
	const existing = store.getClient(values.client_id);
	const parsed = ClientBody.safeParse({
		client_id: values.client_id,
		client_secret: secret === '' ? existing?.client_secret : secret,
		name: values.name.trim() === '' ? undefined : values.name,
		redirect_uris: entries(values.redirect_uris, /\r?\n/),
		countries: entries(values.countries, /,/),
		verification_key: values.verification_key
	});
	const fields = parsed.success ? {} : fieldProblems(parsed.error);
	if (secret === '' && !existing) fields.client_secret = NEW_CLIENT_NEEDS_SECRET;
	if (!parsed.success || Object.keys(fields).length > 0) return notSaved('client', 'The client', fields, { client: values });
	const written = writeClient(store, parsed.data, rules);
	if (!written.ok) return refused('client', written.error, written.reason === 'taken' ? { client_id: written.error } : {}, { client: values, status: written.status });
	const client = written.value;
	const secretNote = existing ? (secret === '' ? ' Its secret is unchanged.' : ' Its secret was replaced.') : '';
	return done('client', `Client \`${client.client_id}\` ${existing ? 'updated' : 'created'}.${secretNote}`, client.client_id);
}

const ClientKeyForm = z.object({ client_id: z.string().min(1), verification_key: z.enum(['supergroup', 'group']) });

/** The per-client `group` key setting: which key me.json's verification elements carry for this client. */
export function setClientKey(store: SandboxWorkspace, form: FormData, rules: WriteRules): Feedback {
	const input = ClientKeyForm.safeParse({ client_id: field(form, 'client_id'), verification_key: field(form, 'verification_key') });
	if (!input.success) return refused('client-key', `The key was not changed: ${Object.values(fieldProblems(input.error)).join('; ')}.`);
	const client = store.getClient(input.data.client_id);
	if (!client) return refused('client-key', `No client \`${input.data.client_id}\`: it may have been removed by a reset. Reload the page.`, {}, { subject: input.data.client_id });
	const parsed = ClientBody.safeParse({ ...client, verification_key: input.data.verification_key });
	if (!parsed.success) {
		const problems = Object.values(fieldProblems(parsed.error)).join('; ');
		return refused('client-key', `Client \`${client.client_id}\` is not valid as stored (${problems}); fix it with the edit form.`, {}, { subject: client.client_id });
	}
	const written = writeClient(store, parsed.data, rules);
	if (!written.ok) return refused('client-key', written.error, {}, { subject: client.client_id, status: written.status });
	return done('client-key', `Client \`${client.client_id}\` now gets verifications keyed \`${input.data.verification_key}\` from me.json.`, client.client_id);
}

/** The control API's user body, except that an existing user may keep their password. */
const PanelUserBody = UserBody.extend({ password: UserBody.shape.password.optional() });

const NEW_USER_NEEDS_PASSWORD = 'Enter a password: a new user needs one. (When editing a user, leave it blank to keep the current one.)';

/** Verification rows as submitted: parallel lists of supergroups and dates; rows left wholly blank are dropped. */
function verificationRows(form: FormData): UserFormValues['verifications'] {
	const supergroups = form.getAll('verification_supergroup').map((v) => (typeof v === 'string' ? v : ''));
	const dates = form.getAll('verification_expires_on').map((v) => (typeof v === 'string' ? v : ''));
	return Array.from({ length: Math.max(supergroups.length, dates.length) }, (_, i) => ({
		supergroup: supergroups[i] ?? '',
		expires_on: (dates[i] ?? '').trim()
	})).filter((row) => row.supergroup !== '' || row.expires_on !== '');
}

/** Creates or edits a user: login, password (blank keeps the existing one), verifications, deletion request. */
export function saveUserForm(store: SandboxWorkspace, form: FormData, rules: WriteRules): Feedback {
	const values: UserFormValues = {
		login: field(form, 'login').trim(),
		verifications: verificationRows(form),
		deletion_requested: field(form, 'deletion_requested') === 'on'
	};
	const password = field(form, 'password');
	const existing = store.getUserByLogin(values.login);
	const parsed = PanelUserBody.safeParse({ ...values, password: password === '' ? undefined : password });
	const fields = parsed.success ? {} : fieldProblems(parsed.error);
	if (password === '' && !existing) fields.password = NEW_USER_NEEDS_PASSWORD;
	if (!parsed.success || Object.keys(fields).length > 0) return notSaved('user', 'The user', fields, { user: values });
	const written = writeUser(store, parsed.data, rules);
	if (!written.ok) return refused('user', written.error, {}, { user: values, status: written.status });
	const user = written.value;
	const passwordNote = existing ? (password === '' ? ' Their password is unchanged.' : ' Their password was replaced.') : '';
	return done('user', `User \`${user.login}\` ${existing ? 'updated' : `created with sbid_number ${user.sbid_number}`}.${passwordNote}`, user.login);
}

const UserDeletionForm = z.object({ login: z.string().min(1), deletion_requested: z.enum(['true', 'false']) });

/** Marks (or unmarks) a user as having asked for account deletion: me.json then answers 404 for them. */
export function setUserDeletion(store: SandboxWorkspace, form: FormData, rules: WriteRules): Feedback {
	const input = UserDeletionForm.safeParse({ login: field(form, 'login'), deletion_requested: field(form, 'deletion_requested') });
	if (!input.success) return refused('user-deletion', `Nothing was changed: ${Object.values(fieldProblems(input.error)).join('; ')}.`);
	const user = store.getUserByLogin(input.data.login);
	if (!user) return refused('user-deletion', `No user \`${input.data.login}\`: it may have been removed by a reset. Reload the page.`, {}, { subject: input.data.login });
	const requested = input.data.deletion_requested === 'true';
	const written = writeUser(store, { login: user.login, verifications: user.verifications, deletion_requested: requested }, rules);
	if (!written.ok) return refused('user-deletion', written.error, {}, { subject: user.login, status: written.status });
	const message = requested
		? `\`${user.login}\` has asked for account deletion: me.json answers 404 for their tokens.`
		: `\`${user.login}\` no longer has a deletion request.`;
	return done('user-deletion', message, user.login);
}

function clockMoved(store: SandboxWorkspace, seconds: number, what: string): Feedback {
	const now = store.advanceClock(seconds);
	return done('clock', `${what} The sandbox's now is ${now.toISOString()} (today ${store.today()}).`);
}

/** Advances the sandbox clock by `seconds` (a whole, positive number). */
export function advanceClockBy(store: SandboxWorkspace, form: FormData): Feedback {
	const raw = field(form, 'seconds');
	const parsed = ClockBody.safeParse({ advance_seconds: raw.trim() === '' ? Number.NaN : Number(raw) });
	if (!parsed.success) {
		const problem = `\`${raw}\` is not a whole, positive number of seconds (${parsed.error.issues.map((i) => i.message).join('; ')})`;
		return refused('clock', `The clock was not moved: ${problem}.`, { seconds: problem });
	}
	return clockMoved(store, parsed.data.advance_seconds, `Advanced ${durationWords(parsed.data.advance_seconds)}.`);
}

/** The set-clock form's instant: a date and an optional time of day (HH:MM), both UTC. */
const ClockSetForm = z.object({
	date: realDate,
	time: z
		.string()
		.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time of day written HH:MM (24-hour, UTC)')
		.or(z.literal(''))
});

/** Sets the workspace clock to any instant, earlier or later than now; it runs on from there. */
export function setClockTo(store: SandboxWorkspace, form: FormData): Feedback {
	const date = field(form, 'date').trim();
	const time = field(form, 'time').trim();
	const parsed = ClockSetForm.safeParse({ date, time });
	if (!parsed.success) {
		const problems = fieldProblems(parsed.error);
		if (problems.date) problems.date = `\`${date || '(empty)'}\` is not ${problems.date}; pick a date.`;
		return refused('clock', 'The clock was not set: the date or time needs attention.', problems);
	}
	const now = store.setClock(new Date(`${parsed.data.date}T${parsed.data.time || '00:00'}:00Z`));
	return done('clock', `Set. The sandbox's now is ${now.toISOString()} (today ${store.today()}).`);
}

/** Back to real time, nothing else changed. */
export function resetClockToRealTime(store: SandboxWorkspace): Feedback {
	const now = store.resetClock();
	return done('clock', `Back to real time: the sandbox's now is ${now.toISOString()} (today ${store.today()}).`);
}

/** Back to the shipped fixtures; the form must carry the confirmation checkbox. */
export function resetSandbox(store: SandboxWorkspace, explorerOrigin: string, form: FormData): Feedback {
	if (field(form, 'confirm') !== 'on') {
		return refused('reset', 'Nothing was reset: tick the confirmation box first.', { confirm: 'Tick this box to confirm the reset.' });
	}
	resetToFixtures(store, explorerOrigin);
	return done('reset', `The sandbox is back to its fixtures, the clock at real time (${store.now().toISOString()}) and the request log empty.`);
}

/** The answer to every action while the sandbox is off (SANDBOX=off). */
export function sandboxOff(form: PanelForm): Feedback {
	return refused(form, 'The sandbox is off (SANDBOX=off), so there is nothing to change. Start the explorer without SANDBOX=off.');
}
