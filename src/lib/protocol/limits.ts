/** Limits of the interface (section 8, and 5.7). */
export const LIMITS = {
	/** Authorisation grant code validity: 2 hours. */
	codeTtlSeconds: 2 * 60 * 60,
	/** Grant code uses. */
	codeMaxUses: 1,
	/** Access token lifetime, `expires_in` in the token response. */
	accessTokenExpiresIn: 2419199,
	/** Length of `sbid_number`. */
	sbidLength: 7
} as const;

/** "2 hours", "1 day", "1 day 2 hours", "1 minute 30 seconds". */
export function durationWords(seconds: number): string {
	const units: [number, string][] = [
		[86_400, 'day'],
		[3600, 'hour'],
		[60, 'minute'],
		[1, 'second']
	];
	const parts: string[] = [];
	let rest = seconds;
	for (const [size, word] of units) {
		const count = Math.floor(rest / size);
		if (count > 0) parts.push(`${count} ${word}${count === 1 ? '' : 's'}`);
		rest -= count * size;
	}
	return parts.join(' ');
}

/** How long a grant code can be exchanged, in words ("2 hours"), for every message that quotes it. */
export const CODE_VALIDITY = durationWords(LIMITS.codeTtlSeconds);

/** Section numbers of the interface, used to link findings and annotations to the text. */
export const SECTIONS = {
	client: '2.1',
	code: '2.2',
	tokenResponse: '2.3',
	userInfo: '2.4',
	supergroups: '2.5',
	errorBodies: '2.6',
	states: '3',
	authorisationPage: '4.1',
	redirectExtras: '4.1.1',
	tokenEndpoint: '4.2',
	meEndpoint: '4.3',
	authentication: '5',
	errorsAuthorisation: '7.1',
	errorsToken: '7.2',
	errorsMe: '7.3',
	limits: '8'
} as const;

/** Country codes: `uk` stands for the United Kingdom; anything else is ISO 3166-1 alpha-2 (4.1). */
export const UK_COUNTRY = 'uk';
