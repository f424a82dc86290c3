/** The /check page's address fragment, `#link=…`: where a checked link lives, so it is shareable but never sent. */

const NAME = 'link';

/** The link a fragment (`location.hash`, with or without its `#`) names; null when it names none. */
export function linkFromFragment(hash: string): string | null {
	return new URLSearchParams(hash.replace(/^#/, '')).get(NAME);
}

/** The fragment naming `link`, `#` included; empty for no link. */
export function fragmentOf(link: string): string {
	return link === '' ? '' : `#${new URLSearchParams({ [NAME]: link })}`;
}
