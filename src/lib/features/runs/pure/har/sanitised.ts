/**
 * Whether a browser's HAR was exported sanitised. Chrome's default export since version 130 ("Export HAR
 * (sanitized)") removes `Cookie`, `Set-Cookie` and `Authorization` from every request and response, and other
 * browsers offer the same; the file says nothing of it. The one rule, stated to the user by `describeSanitised`:
 *
 *   a HAR is sanitised when none of its entries carries any of those headers (nor a cookie in its `cookies` lists),
 *   although it shows the browser on the authorisation host beyond the link itself (the sign-in page), which keeps
 *   its session in a cookie: an export that kept headers shows that cookie.
 *
 * A HAR of the link alone (or hand-written) is not judged sanitised: nothing in it says a cookie was there to strip.
 * Every entry of the file is observed, the flow's and the others, as the scan reads it.
 */
import type { SanitisedExport } from '$lib/flow/flags';
import type { HarEntry } from './har-schema';
import { stepOfRequest } from '$lib/flow/steps';

/** The headers a sanitised export removes, as the browsers name them. */
export const STRIPPED_HEADERS = ['Cookie', 'Set-Cookie', 'Authorization'] as const;

const REQUEST_HEADERS = new Set(['cookie', 'authorization']);

const originOf = (url: string) => (URL.canParse(url) ? new URL(url).origin : '');

export class SanitisedCheck {
	private credentialSeen = false;
	private readonly linkOrigins = new Set<string>();
	private readonly requestsByOrigin = new Map<string, number>();

	observe(entry: HarEntry): void {
		const { request, response } = entry;
		if (!this.credentialSeen)
			this.credentialSeen =
				request.cookies.length > 0 ||
				response.cookies.length > 0 ||
				request.headers.some((h) => REQUEST_HEADERS.has(h.name.toLowerCase())) ||
				response.headers.some((h) => h.name.toLowerCase() === 'set-cookie');
		const origin = originOf(request.url);
		this.requestsByOrigin.set(origin, (this.requestsByOrigin.get(origin) ?? 0) + 1);
		if (stepOfRequest(request.method, request.url) === 'link') this.linkOrigins.add(origin);
	}

	/** What the export hid, when the file is judged sanitised. */
	result(): SanitisedExport | undefined {
		if (this.credentialSeen) return undefined;
		const signedIn = [...this.linkOrigins].some((origin) => (this.requestsByOrigin.get(origin) ?? 0) >= 2);
		return signedIn ? { hidden: [...STRIPPED_HEADERS] } : undefined;
	}
}

/** For the run page, the report and the import's notes: that the HAR was sanitised, and what that hides. */
export function describeSanitised(sanitised: SanitisedExport): string {
	const names = sanitised.hidden.map((h) => `\`${h}\``);
	const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? '');
	return (
		`This HAR was exported sanitised (Chrome's default since version 130, "Export HAR (sanitized)"; other browsers offer the same): ` +
		`it shows no ${list} header anywhere, although the browser signed in on the authorisation host, which keeps its session in a cookie. ` +
		'What those headers carried is unknown, not missing: the browser\'s sessions with the service and with your app (so whether your app ' +
		'kept the sign-in in its session cookie), and any credential a request sent in `Authorization` (an access token on me.json, client ' +
		'credentials on a token request). No finding here rests on them; where they matter, your app\'s server log says what they carried.'
	);
}
