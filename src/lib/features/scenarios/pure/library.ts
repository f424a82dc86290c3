/**
 * The scenario library: one named scenario for each row of the interface's error tables (section 7), with the
 * notable causes of 7.2 and 7.3 as scenarios of their own, plus cancel and success. A scenario is data: what to
 * set up on the sandbox, the steps to walk, and the outcome the tables say comes out. `features/scenarios/runner.ts` walks them.
 *
 * Independence and the clock. Each run of a scenario on the sandbox happens in a throwaway workspace of its own,
 * created empty through the control API and removed afterwards (`features/scenarios/workspace.ts`): its client(s),
 * user and clock moves stay there, so no scenario changes the default workspace, which a person may be using, or
 * another run's. Client ids are unique across the whole sandbox, so the run's clients still carry a unique suffix.
 * Verification dates are relative to the workspace's today, read when it is made, and a scenario moves the clock
 * only relative to its own code or token ("two hours after the code was issued"). That makes a scenario's outcome
 * independent of every other scenario, of their order, and of runs in parallel against one sandbox.
 */
import { CODE_VALIDITY, type AuthorisationParameter, type CauseIdOf, type ErrorRowId, type RowCause, type Supergroup, type TokenParameter } from '$lib/protocol';
import type { Annotation } from '$lib/flow/diagnose/diagnose';

/** The steps of the flow an outcome is read from. */
export type FlowStep = 'authorise' | 'token' | 'me';

/** The scenario's own client, or its second one (for the scenarios about two registrations). */
export type ClientRole = 'main' | 'other';

export type LinkParam = AuthorisationParameter;

/**
 * Values may contain `{suffix}` (this run's unique suffix) and `{redirect_uri}` (the client's registered redirect
 * URI), filled in by the runner.
 */
export type Step =
	| {
			kind: 'authorise';
			/** Whose link; default main. */
			as?: ClientRole;
			decision?: 'authorize' | 'cancel';
			set?: Partial<Record<LinkParam, string>>;
			omit?: LinkParam[];
	  }
	| {
			kind: 'token';
			/** Whose client_id is sent; default main. */
			as?: ClientRole;
			/** Whose secret is sent, or a wrong one; default the `as` client's. */
			secret?: ClientRole | 'wrong';
			/** A client_id nobody registered, instead of `as`'s. */
			clientId?: string;
			/** A code other than the one the redirect delivered. */
			code?: string;
			grantType?: string;
			/** The link's redirect URI with one more query parameter. */
			redirectUriExtra?: boolean;
			omit?: TokenParameter[];
	  }
	| { kind: 'me'; credential?: 'token' | 'code' | 'none'; userAgent?: false; host?: false }
	/** Moves the sandbox clock forward, relative to this scenario's own code or token. */
	| { kind: 'clock'; advance: 'past-code-validity' | 'past-token-expiry' }
	/** Changes the user's verification (sandbox control API): it now ends `expiresInDays` from today. */
	| { kind: 'verification'; expiresInDays: number };

export interface UserSetup {
	/** Each verification's `expires_on`, in days from the sandbox's today at setup. */
	verifications: { supergroup: Supergroup; expiresInDays: number }[];
	deletionRequested?: boolean;
}

export interface ClientSetup {
	role: ClientRole;
	verificationKey?: 'supergroup' | 'group';
}

/** A condition beyond the row, checked on the expected step's annotation. */
export interface Check {
	/** What is checked, for a person. */
	text: string;
	/** null when it holds; otherwise what was seen instead. */
	test: (annotation: Annotation) => string | null;
}

/** An error row with, optionally, one of its own causes (another row's cause does not compile). */
export type ErrorOutcome = { [R in ErrorRowId]: { row: R; cause?: CauseIdOf<R> } }[ErrorRowId];
/** The outcome: an error row, or a flow outcome. */
export type Expected = { step: FlowStep; check?: Check } & ({ row: 'success' | 'cancel'; cause?: never } | ErrorOutcome);

/**
 * Against a deployment without the sandbox control API (no way to set up users or clients, move the clock, or
 * sign a user in): what stands in for the user's browser.
 * - `as-is`: nothing needed; a link error is read from the page, and a made-up code stands in where the row does
 *   not depend on the code.
 * - `code`: a grant code supplied on the command line stands in for the authorisation.
 * - `token`: an access token supplied on the command line stands in for everything before me.json.
 * - null: the scenario needs the control API, and is skipped.
 */
export type CustomMode = 'as-is' | 'code' | 'token' | null;

export interface Scenario {
	id: string;
	title: string;
	/** What the scenario shows, in a sentence. */
	shows: string;
	setup: { user: UserSetup; clients: ClientSetup[] };
	steps: Step[];
	expected: Expected;
	custom: CustomMode;
}

/** The supergroup and country every scenario's link uses; the scenario user is verified in it. */
export const SCENARIO_SUPERGROUP: Supergroup = 'student';
export const SCENARIO_COUNTRY = 'uk';

const VERIFIED: UserSetup = { verifications: [{ supergroup: SCENARIO_SUPERGROUP, expiresInDays: 365 }] };
const MAIN_ONLY: ClientSetup[] = [{ role: 'main' }];
const BOTH_CLIENTS: ClientSetup[] = [{ role: 'main' }, { role: 'other' }];

type ScenarioInput = Omit<Scenario, 'setup'> & { setup?: Partial<Scenario['setup']> };

function scenario(input: ScenarioInput): Scenario {
	return { ...input, setup: { user: input.setup?.user ?? VERIFIED, clients: input.setup?.clients ?? MAIN_ONLY } };
}

type Described = Pick<ScenarioInput, 'id' | 'title' | 'shows' | 'setup'>;
type Changes<K extends Step['kind']> = Omit<Extract<Step, { kind: K }>, 'kind'>;

/** Only the link changes: the page shows a 7.1 error and never redirects, so it reads the same without the control API. */
function linkScenario({ link, error, ...described }: Described & { link: Changes<'authorise'>; error: ErrorOutcome }): Scenario {
	return scenario({ ...described, steps: [{ kind: 'authorise', ...link }], expected: { step: 'authorise', ...error }, custom: 'as-is' });
}

/** The user authorises, then one exchange with the given changes ends in a 7.2 error. */
function exchangeScenario({ exchange: changes, error, ...rest }: Described & { exchange: Changes<'token'>; error: ErrorOutcome; custom: CustomMode }): Scenario {
	return scenario({ ...rest, steps: [authorise, { kind: 'token', ...changes }], expected: { step: 'token', ...error } });
}

const authorise: Step = { kind: 'authorise' };
const exchange: Step = { kind: 'token' };
const readMe: Step = { kind: 'me' };
/** The whole flow up to an access token. */
const TO_TOKEN: Step[] = [authorise, exchange];

const verificationCount = (count: number): Check => ({
	text: count === 0 ? 'no verification listed' : `${count} verification${count === 1 ? '' : 's'} listed`,
	test: (a) => {
		const seen = a.verifications?.length ?? 0;
		return seen === count ? null : `${seen} listed`;
	}
});

const verificationKey = (key: 'supergroup' | 'group'): Check => ({
	text: `key \`${key}\``,
	test: (a) => (a.verificationKey === key ? null : `key ${a.verificationKey ? `\`${a.verificationKey}\`` : 'absent'}`)
});

/** Both checks, the first failure reported. */
const both = (first: Check, second: Check): Check => ({
	text: `${first.text}, ${second.text}`,
	test: (a) => first.test(a) ?? second.test(a)
});

export const SCENARIOS: readonly Scenario[] = [
	/* ------------------------------------------------ success and cancel */
	scenario({
		id: 'success',
		title: 'Success',
		shows: 'The whole flow as the interface describes it: authorise, exchange the code, read me.json.',
		steps: [...TO_TOKEN, readMe],
		expected: { step: 'me', row: 'success', check: both(verificationCount(1), verificationKey('supergroup')) },
		custom: 'code'
	}),
	scenario({
		id: 'response-uses-group',
		title: 'Response uses `group`',
		shows: 'A client whose me.json elements carry the key `group` (the interface\'s sample) instead of `supergroup`: read either.',
		setup: { clients: [{ role: 'main', verificationKey: 'group' }] },
		steps: [...TO_TOKEN, readMe],
		expected: { step: 'me', row: 'success', check: both(verificationCount(1), verificationKey('group')) },
		custom: null
	}),
	scenario({
		id: 'verification-expired-yesterday',
		title: 'Verification expired yesterday',
		shows: 'A verification whose `expires_on` is today was last valid yesterday: me.json answers 200 and lists nothing.',
		steps: [...TO_TOKEN, { kind: 'verification', expiresInDays: 0 }, readMe],
		expected: { step: 'me', row: 'success', check: verificationCount(0) },
		custom: null
	}),
	scenario({
		id: 'user-cancels',
		title: 'User cancels (not an error)',
		shows: 'Cancel on the authorisation page: the redirect comes back without `code`. Not an error.',
		steps: [{ kind: 'authorise', decision: 'cancel' }],
		expected: { step: 'authorise', row: 'cancel' },
		custom: null
	}),

	/* ------------------------------------------------ 7.1 authorisation page */
	linkScenario({
		id: 'redirect-uri-not-registered',
		title: 'Redirect URI not registered (7.1)',
		shows: 'A redirect URI whose path differs from the registered one: the page shows the error and never redirects.',
		link: { set: { redirect_uri: '{redirect_uri}-not-registered' } },
		error: { row: 'auth-invalid-redirect-uri', cause: 'not-registered' }
	}),
	linkScenario({
		id: 'redirect-uri-missing-link',
		title: 'redirect_uri missing from the link (7.1)',
		shows: 'A link without `redirect_uri`.',
		link: { omit: ['redirect_uri'] },
		error: { row: 'auth-invalid-redirect-uri', cause: 'missing' }
	}),
	linkScenario({
		id: 'unknown-client-link',
		title: 'Unknown client (7.1)',
		shows: 'A `client_id` the service does not know.',
		link: { set: { client_id: 'no-such-client-{suffix}' } },
		error: { row: 'auth-invalid-client', cause: 'unknown-client' }
	}),
	linkScenario({
		id: 'client-id-missing-link',
		title: 'client_id missing from the link (7.1)',
		shows: 'A link without `client_id`.',
		link: { omit: ['client_id'] },
		error: { row: 'auth-invalid-client', cause: 'missing' }
	}),
	linkScenario({
		id: 'response-type-token',
		title: 'response_type token (7.1)',
		shows: '`response_type=token` (the implicit grant): only `code` is supported.',
		link: { set: { response_type: 'token' } },
		error: { row: 'auth-unsupported-response-type', cause: 'not-code' }
	}),

	/* ------------------------------------------------ 7.2 token endpoint */
	scenario({
		id: 'code-exchanged-twice',
		title: 'Code exchanged twice',
		shows: 'A code works once: the second exchange of the same code fails (a page reload or a retry does this).',
		steps: [...TO_TOKEN, exchange],
		expected: { step: 'token', row: 'token-invalid-grant', cause: 'used' },
		custom: 'code'
	}),
	scenario({
		id: 'code-after-two-hours',
		title: `Code used after ${CODE_VALIDITY}`,
		shows: `The clock moves past the code's ${CODE_VALIDITY} before the exchange.`,
		steps: [authorise, { kind: 'clock', advance: 'past-code-validity' }, exchange],
		expected: { step: 'token', row: 'token-invalid-grant', cause: 'expired' },
		custom: null
	}),
	exchangeScenario({
		id: 'redirect-uri-extra-parameter',
		title: 'redirect_uri differs by an extra query parameter',
		shows: 'The exchange\'s `redirect_uri` must be the link\'s exactly, extra query parameters included.',
		exchange: { redirectUriExtra: true },
		error: { row: 'token-invalid-grant', cause: 'redirect-mismatch' },
		custom: 'code'
	}),
	exchangeScenario({
		id: 'code-other-client',
		title: 'Code exchanged by another client',
		shows: 'A code issued to one client, exchanged with another client\'s (valid) credentials.',
		setup: { clients: BOTH_CLIENTS },
		exchange: { as: 'other' },
		error: { row: 'token-invalid-grant', cause: 'other-client' },
		custom: null
	}),
	exchangeScenario({
		id: 'code-unknown',
		title: 'Code the service never issued',
		shows: 'A mistyped, truncated or made-up code.',
		exchange: { code: 'not-a-code-{suffix}' },
		error: { row: 'token-invalid-grant', cause: 'unknown-code' },
		custom: 'as-is'
	}),
	scenario({
		id: 'code-missing-after-cancel',
		title: 'Code missing after a cancel',
		shows: 'The user cancelled, so the redirect had no code, and the app tried to exchange anyway.',
		steps: [{ kind: 'authorise', decision: 'cancel' }, { kind: 'token', omit: ['code'] }],
		expected: { step: 'token', row: 'token-invalid-request', cause: 'missing-code' },
		custom: 'as-is'
	}),
	exchangeScenario({
		id: 'redirect-uri-missing',
		title: 'redirect_uri missing',
		shows: 'An exchange without `redirect_uri`: the description names the missing parameter.',
		exchange: { omit: ['redirect_uri'] },
		error: { row: 'token-invalid-request', cause: 'missing-parameter' },
		custom: 'as-is'
	}),
	exchangeScenario({
		id: 'grant-type-wrong',
		title: 'grant_type wrong',
		shows: '`grant_type=password`: only `authorization_code` is supported.',
		exchange: { grantType: 'password' },
		error: { row: 'token-unsupported-grant-type', cause: 'wrong-grant-type' },
		custom: 'as-is'
	}),
	exchangeScenario({
		id: 'grant-type-missing',
		title: 'grant_type missing',
		shows: 'An exchange without `grant_type`.',
		exchange: { omit: ['grant_type'] },
		error: { row: 'token-unsupported-grant-type', cause: 'wrong-grant-type' },
		custom: 'as-is'
	}),
	exchangeScenario({
		id: 'wrong-secret',
		title: 'Wrong secret',
		shows: 'The right client ID with a secret that is not its own.',
		exchange: { secret: 'wrong' },
		error: { row: 'token-invalid-client', cause: 'wrong-secret' },
		custom: 'as-is'
	}),
	scenario({
		id: 'secret-to-wrong-client',
		title: 'Secret sent to the wrong client',
		shows: 'An app with two registrations mixes them up: client A\'s secret sent with client B\'s ID.',
		setup: { clients: BOTH_CLIENTS },
		steps: [{ kind: 'authorise', as: 'other' }, { kind: 'token', as: 'other', secret: 'main' }],
		expected: { step: 'token', row: 'token-invalid-client', cause: 'wrong-secret' },
		custom: null
	}),
	exchangeScenario({
		id: 'unknown-client-token',
		title: 'Unknown client at the token endpoint',
		shows: 'A `client_id` the service does not know, at the exchange.',
		exchange: { clientId: 'no-such-client-{suffix}' },
		error: { row: 'token-invalid-client', cause: 'unknown-client' },
		custom: 'as-is'
	}),
	exchangeScenario({
		id: 'client-secret-missing',
		title: 'Client secret missing',
		shows: 'An exchange without `client_secret`.',
		exchange: { omit: ['client_secret'] },
		error: { row: 'token-invalid-client', cause: 'missing-credentials' },
		custom: 'as-is'
	}),

	/* ------------------------------------------------ 7.3 me.json */
	scenario({
		id: 'me-no-host',
		title: 'No Host on me.json',
		shows: 'A hand-built request without a `Host` header.',
		steps: [...TO_TOKEN, { kind: 'me', host: false }],
		expected: { step: 'me', row: 'me-bad-request', cause: 'missing-host' },
		custom: 'token'
	}),
	scenario({
		id: 'me-no-token',
		title: 'No token on me.json',
		shows: 'me.json called without any access token.',
		steps: [{ kind: 'me', credential: 'none' }],
		expected: { step: 'me', row: 'me-unauthorized', cause: 'missing-token' },
		custom: 'as-is'
	}),
	scenario({
		id: 'me-grant-code',
		title: 'Grant code sent to me.json',
		shows: 'The code from the redirect sent as if it were the access token.',
		steps: [authorise, { kind: 'me', credential: 'code' }],
		expected: { step: 'me', row: 'me-unauthorized', cause: 'grant-code' },
		custom: 'code'
	}),
	scenario({
		id: 'me-no-user-agent',
		title: 'No User-Agent on me.json',
		shows: 'A request without a `User-Agent` header.',
		steps: [...TO_TOKEN, { kind: 'me', userAgent: false }],
		expected: { step: 'me', row: 'me-forbidden', cause: 'missing-user-agent' },
		custom: 'token'
	}),
	scenario({
		id: 'me-account-deletion',
		title: 'User asked for account deletion',
		shows: 'The token was granted for a user who has asked for their account to be deleted.',
		setup: { user: { ...VERIFIED, deletionRequested: true } },
		steps: [...TO_TOKEN, readMe],
		expected: { step: 'me', row: 'me-not-found', cause: 'deletion-requested' },
		custom: null
	}),
	scenario({
		id: 'me-token-expired',
		title: 'Token used after it expired',
		shows: 'The clock moves past the token\'s `expires_in` before me.json.',
		steps: [...TO_TOKEN, { kind: 'clock', advance: 'past-token-expiry' }, readMe],
		expected: { step: 'me', row: 'me-unauthorized', cause: 'invalid-token' },
		custom: null
	})
];

/** Causes of the tables no scenario can produce, and why. */
export const UNPRODUCIBLE_CAUSES: readonly (RowCause & { why: string })[] = [
	{
		rowId: 'token-invalid-grant',
		causeId: 'revoked',
		why: 'Neither the interface nor the sandbox offers a way to revoke a code.'
	}
];

export function findScenario(id: string): Scenario | undefined {
	return SCENARIOS.find((s) => s.id === id);
}

