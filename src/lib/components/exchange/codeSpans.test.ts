import { describe, expect, it } from 'vitest';
import { codeSpans } from './codeSpans';

describe('codeSpans', () => {
	it('marks backticked parts as code and keeps the text around them', () => {
		expect(codeSpans('Send `grant_type=authorization_code` now.')).toEqual([
			{ text: 'Send ', code: false },
			{ text: 'grant_type=authorization_code', code: true },
			{ text: ' now.', code: false }
		]);
	});

	it('returns plain text as one span and drops empty parts', () => {
		expect(codeSpans('plain')).toEqual([{ text: 'plain', code: false }]);
		expect(codeSpans('`code`')).toEqual([{ text: 'code', code: true }]);
	});
});
