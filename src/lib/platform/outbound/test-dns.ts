/** For tests of the SSRF guard: a resolver with fixed answers, and a record of what it was asked. */
import type { LookupAddress } from 'node:dns';
import type { Resolver } from './ssrf';

export function fakeDns(answers: Record<string, string[]>): { resolve: Resolver; asked: string[] } {
	const asked: string[] = [];
	const resolve: Resolver = async (hostname) => {
		asked.push(hostname);
		const addresses = answers[hostname];
		if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
		return addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
	};
	return { resolve, asked };
}
