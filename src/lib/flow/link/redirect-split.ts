/**
 * A link whose `redirect_uri` was not encoded as a URI component is split by the redirect URI's own query: its
 * pieces after the first `&` become parameters of the link, and the service reads a shorter redirect URI. An
 * exchange that sends the whole redirect URI then differs from the link's by exactly those pieces: the cause is the
 * link's encoding, not the exchange.
 */
import { uriParts } from '$lib/http/encoding';
import { splitRawQuery } from '$lib/http/form';
import { leakedParams } from './lint-params';

/** The pieces (`next=/home`) the unencoded link lost to its own parameters, when `sent` is the link's redirect URI with them; else null. */
export function splitOffPieces(link: string, sent: string): string[] | null {
	const params = splitRawQuery(uriParts(link).query);
	const index = params.findIndex((p) => p.name === 'redirect_uri');
	const redirect = params[index];
	if (!redirect?.rawValue.includes('?')) return null;
	const leaked = leakedParams(params, index);
	if (leaked.length === 0) return null;
	const raw = leaked.map((p) => `${p.rawName}=${p.rawValue}`);
	const decoded = leaked.map((p) => `${p.name}=${p.value}`);
	return [redirect.value, ...raw].join('&') === sent || [redirect.value, ...decoded].join('&') === sent ? raw : null;
}
