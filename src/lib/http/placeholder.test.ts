import { describe, expect, it } from 'vitest';
import { isPlaceholder } from './placeholder';

describe('isPlaceholder', () => {
	it('knows what sanitisers write in place of a value', () => {
		for (const value of ['[REDACTED]', 'REDACTED', '<redacted>', '(removed)', '[FILTERED]', 'sanitised', '***', 'xxxxxx', 'XXXX', '••••']) expect(isPlaceholder(value), value).toBe(true);
	});

	it('does not take a real code, token or word for one', () => {
		for (const value of ['t2SJRC2jOKvRvn_UaGZCWJDNgiOtRNsGSxSPd6uSHE8', 'abc', 'x', 'redacted-later-1', 'xxxxy', '**a**']) expect(isPlaceholder(value), value).toBe(false);
	});
});
