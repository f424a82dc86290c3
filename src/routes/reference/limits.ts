/** The limits of the protocol model, worded for the reference page. Values come from LIMITS only. */
import { LIMITS } from '$lib/protocol';

type LimitKey = keyof typeof LIMITS;

const WORDING: Record<LimitKey, { limit: string; value: (v: number) => string; appliesTo: string }> = {
	codeTtlSeconds: {
		limit: 'Authorisation grant code validity',
		value: (s) => `${s / 3600} hours (${s} seconds)`,
		appliesTo: 'Exchange at `/oauth/token`.'
	},
	codeMaxUses: { limit: 'Grant code uses', value: String, appliesTo: 'Exchange at `/oauth/token`.' },
	accessTokenExpiresIn: {
		limit: 'Access token lifetime (`expires_in`)',
		value: (s) => `${s} seconds (about ${Math.round(s / 86_400)} days)`,
		appliesTo: 'Tokens from `/oauth/token`.'
	},
	sbidLength: { limit: 'Size of `sbid_number`', value: (n) => `${n} characters`, appliesTo: 'Field in the user-information response.' }
};

export interface LimitRow {
	key: LimitKey;
	limit: string;
	value: string;
	appliesTo: string;
}

export const LIMIT_ROWS: readonly LimitRow[] = (Object.keys(LIMITS) as LimitKey[]).map((key) => ({
	key,
	limit: WORDING[key].limit,
	value: WORDING[key].value(LIMITS[key]),
	appliesTo: WORDING[key].appliesTo
}));
