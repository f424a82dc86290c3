/**
 * Which visitor a remote address counts as, for per-visitor limits: an IPv4 address is one visitor; an IPv6 address
 * counts as its /64, the block one home or one server is given and can fill with addresses at will (counted one by
 * one, a single machine would be millions of visitors). An IPv4 address mapped into IPv6 is that IPv4 address.
 */

/** The visitor an address counts as: `192.0.2.7`, or `2001:db8:0:1::/64`; `unknown` when the address is not known. */
export function visitorOf(address: string | undefined): string {
	if (!address) return 'unknown';
	const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
	if (mapped) return mapped[1]!;
	if (!address.includes(':')) return address;
	return `${first64Bits(address)}::/64`;
}

/** The first four groups of an IPv6 address, in the shortest hexadecimal (`::` expanded, a zone id dropped). */
function first64Bits(address: string): string {
	const bare = address.split('%')[0]!.toLowerCase();
	const elided = bare.indexOf('::');
	const groups = (text: string) => (text === '' ? [] : text.split(':'));
	// An embedded IPv4 address (`::ffff:192.0.2.1`, `64:ff9b::192.0.2.1`) fills the last two groups.
	const width = (parts: string[]) => parts.reduce((n, part) => n + (part.includes('.') ? 2 : 1), 0);
	let all: string[];
	if (elided === -1) all = groups(bare);
	else {
		const head = groups(bare.slice(0, elided));
		const tail = groups(bare.slice(elided + 2));
		all = [...head, ...Array<string>(Math.max(0, 8 - width(head) - width(tail))).fill('0'), ...tail];
	}
	return all
		.slice(0, 4)
		.map((group) => (Number.parseInt(group, 16) || 0).toString(16))
		.join(':');
}
