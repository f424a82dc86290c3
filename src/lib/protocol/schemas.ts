/** zod schemas for every request and response of the interface. */
import { z } from 'zod';
import { LIMITS } from './limits';
import { SUPERGROUP_VALUES } from './supergroups';
import { AUTHORIZATION_CODE, type AuthorisationParameter, type TokenParameter } from './parameters';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date written YYYY-MM-DD');

/** Query of `GET {auth_url}/sso/{supergroup}` (4.1). All required; values checked by the authorisation rules. */
export const AuthorisationQuery = z.object({
	response_type: z.string(),
	client_id: z.string(),
	redirect_uri: z.string(),
	country: z.string()
} satisfies Record<AuthorisationParameter, z.ZodType>);
export type AuthorisationQuery = z.infer<typeof AuthorisationQuery>;

/** Parameters of `POST {accounts_url}/oauth/token` (4.2). */
export const TokenRequest = z.object({
	grant_type: z.literal(AUTHORIZATION_CODE),
	code: z.string().min(1),
	redirect_uri: z.string().min(1),
	client_id: z.string().min(1),
	client_secret: z.string().min(1)
} satisfies Record<TokenParameter, z.ZodType>);
export type TokenRequest = z.infer<typeof TokenRequest>;

/** Token response (2.3). Strict: the sandbox sends exactly these fields. */
export const TokenResponse = z.strictObject({
	access_token: z.string().min(1),
	token_type: z.literal('Bearer'),
	expires_in: z.number().int().positive(),
	refresh_token: z.string().min(1),
	created_at: z.number().int().nonnegative()
});
export type TokenResponse = z.infer<typeof TokenResponse>;

/** Token endpoint error body (2.6, 7.2). */
export const TokenErrorBody = z.object({
	error: z.string(),
	error_description: z.string()
});
export type TokenErrorBody = z.infer<typeof TokenErrorBody>;

const supergroupValue = z.enum(SUPERGROUP_VALUES);

/** One verification (2.4): the key is `supergroup` or, as the sample shows, `group` (see erratum). */
export const Verification = z.union([
	z.strictObject({ supergroup: supergroupValue, expires_on: isoDate }),
	z.strictObject({ group: supergroupValue, expires_on: isoDate })
]);
export type Verification = z.infer<typeof Verification>;

/** User verification information (2.4). */
export const MeResponse = z.strictObject({
	sbid_number: z
		.string()
		.length(LIMITS.sbidLength)
		.regex(/^[A-Za-z0-9]+$/, '7 alphanumeric characters'),
	verifications: z.array(Verification)
});
export type MeResponse = z.infer<typeof MeResponse>;

/** me.json error body, when there is one (2.6, 7.3). */
export const MeErrorBody = z.object({ message: z.string() });
export type MeErrorBody = z.infer<typeof MeErrorBody>;

export { isoDate as IsoDate };
