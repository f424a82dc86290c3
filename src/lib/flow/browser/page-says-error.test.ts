import { describe, expect, it } from 'vitest';
import { exchange } from '../test-helpers';
import { pageSaysError } from './page-says-error';

const page = (path: string, status: number, body: string) => exchange('arrival', { url: `https://shop.example.com${path}` }, { status, body });

describe('pageSaysError: the page a user was left on', () => {
	it('reads a 4xx or 5xx, a failure path or an error title as an error', () => {
		expect(pageSaysError(page('/auth/failure?message=invalid_credentials', 200, '<title>Sign-in</title>'))).toBe(true);
		expect(pageSaysError(page('/', 400, '<title>Sign-in not completed</title>'))).toBe(true);
		expect(pageSaysError(page('/', 200, '<title>Sign-in failed</title>'))).toBe(true);
	});

	it('does not read a cancel page or a signed-in page as one', () => {
		expect(pageSaysError(page('/?cancelled=1', 200, '<title>Sign-in cancelled</title><p>You cancelled the sign-in.</p>'))).toBe(false);
		expect(pageSaysError(page('/home', 200, '<title>Signed in</title>'))).toBe(false);
	});
});
