/**
 * What the sandbox control API accepts (zod schemas of its bodies) and the shape of its answers: read by the control
 * API (control.ts, control-workspaces.ts) and by the explorer's sandbox panel, which validates the same forms.
 */
import { z } from 'zod';
import { OUTCOME_IDS, SUPERGROUP_VALUES, checkCountry } from '../../protocol';
import { IsoDate } from '../../protocol/schemas';

const MAX_CLOCK_ADVANCE_SECONDS = 10 * 366 * 24 * 3600;

export const realDate = IsoDate.refine((s) => {
	const d = new Date(`${s}T00:00:00Z`);
	return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}, 'a real calendar date written YYYY-MM-DD');

const registeredRedirectUri = z
	.string()
	.max(2048)
	.refine((s) => URL.canParse(s), 'must be an absolute URI, such as https://app.example/callback')
	.refine((s) => !s.includes('?') && !s.includes('#'), 'register it without `?` or `#`: only scheme, authority and path are matched');

const countryCode = z.string().superRefine((value, ctx) => {
	const check = checkCountry(value);
	if (check.ok) return;
	const messages = {
		'gb-not-uk': 'the United Kingdom is `uk`, not `gb`',
		'not-lower-case': `write country codes in lower case (\`${check.suggestion}\`)`,
		'not-iso': `\`${value}\` is not \`uk\` or an ISO 3166 alpha-2 code`
	};
	ctx.addIssue({ code: 'custom', message: messages[check.reason] });
});

export const ClientBody = z.strictObject({
	client_id: z.string().min(1).max(200).regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces'),
	client_secret: z.string().min(1).max(200),
	name: z.string().trim().min(1).max(100).optional(),
	redirect_uris: z.array(registeredRedirectUri).min(1, 'register at least one redirect URI').max(20),
	countries: z.array(countryCode).min(1, 'the plan needs at least one country').max(300),
	verification_key: z.enum(['supergroup', 'group']).optional()
});

export const UserBody = z.strictObject({
	login: z.string().trim().min(1).max(254),
	password: z.string().min(1).max(200),
	verifications: z
		.array(z.strictObject({ supergroup: z.enum(SUPERGROUP_VALUES), expires_on: realDate }))
		.max(SUPERGROUP_VALUES.length)
		.refine((vs) => new Set(vs.map((v) => v.supergroup)).size === vs.length, 'at most one verification per supergroup'),
	deletion_requested: z.boolean().optional()
});

export const ClockBody = z.strictObject({
	advance_seconds: z.number().int('a whole number of seconds').positive('advance moves the clock forward; to go back, send `set`').max(MAX_CLOCK_ADVANCE_SECONDS)
});

/** `{set}`: the workspace clock runs on from this instant, earlier or later than now. */
const SetClockBody = z.strictObject({
	set: z.iso.datetime({ message: 'an instant written YYYY-MM-DDTHH:MM:SSZ (UTC)' })
});
/** `{reset: true}`: the workspace clock goes back to real time. */
const ResetClockBody = z.strictObject({ reset: z.literal(true, 'send `"reset": true`') });

/** The clock body's form is told by its one member, so each form's own problem is the one reported. */
export function clockSchema(body: unknown) {
	if (body !== null && typeof body === 'object' && 'set' in body) return SetClockBody;
	if (body !== null && typeof body === 'object' && 'reset' in body) return ResetClockBody;
	return ClockBody;
}

export const WorkspaceBody = z.strictObject({
	fixtures: z.enum(['demo', 'empty']).default('demo'),
	name: z.string().trim().min(1).max(100).optional()
});

/** Link parameters are optional here: a missing one is answered by the authorisation rules (7.1), as on the page. */
export const AuthorizeBody = z.strictObject({
	supergroup: z.string().max(100),
	response_type: z.string().max(100).optional(),
	client_id: z.string().max(200).optional(),
	redirect_uri: z.string().max(4096).optional(),
	country: z.string().max(100).optional(),
	login: z.string().min(1).max(254),
	decision: z.enum(['authorize', 'cancel'])
});

export const ResetBody = z.strictObject({});

const clientId = z.string().min(1, 'name the client').max(200);
const outcomeId = z.enum(OUTCOME_IDS, {
	error: (issue) => `${issue.input === undefined ? 'name an outcome' : `\`${String(issue.input)}\` is not an outcome`}; one of: ${OUTCOME_IDS.join(', ')}`
});

/** `POST /sandbox/outcomes`: sets a one-shot outcome rule on a client (sandbox choice 'outcome-rules'). */
export const OutcomeBody = z.strictObject({ client_id: clientId, outcome: outcomeId });

/** `POST /sandbox/outcomes/clear`: removes the client's pending rules, or only `outcome`'s. */
export const OutcomeClearBody = z.strictObject({ client_id: clientId, outcome: outcomeId.optional() });

export type Answer = { status: number; body: unknown; headers?: Record<string, string> };

export const badRequest = (error: string): Answer => ({ status: 400, body: { error } });
