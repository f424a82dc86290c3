import { describe, expect, it } from 'vitest';
import { fragmentOf, linkFromFragment } from './checkFragment';

describe('the /check fragment', () => {
	it('carries a link with its own query and fragment intact, both ways', () => {
		const link = 'http://localhost:3001/sso/student?client_id=a&redirect_uri=https%3A%2F%2Fapp%2Fcb%3Fx%3D1&client_secret=s+t#frag';
		expect(linkFromFragment(fragmentOf(link))).toBe(link);
		expect(fragmentOf(link).startsWith('#link=')).toBe(true);
	});

	it('names no link when there is none', () => {
		expect(linkFromFragment('')).toBeNull();
		expect(linkFromFragment('#other=1')).toBeNull();
		expect(fragmentOf('')).toBe('');
	});
});
