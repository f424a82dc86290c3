import { describe, expect, it } from 'vitest';
import { isBrowserOwnRequest, isNotOfTheFlow } from './noise';

describe('isNotOfTheFlow', () => {
	it('leaves out Werkzeug\'s debugger files and Chromium\'s own services', () => {
		expect(isNotOfTheFlow('http://127.0.0.1:5000/callback?__debugger__=yes&cmd=resource&f=debugger.js')).toBe(true);
		expect(isNotOfTheFlow('http://127.0.0.1:5000/callback?__debugger__=yes&cmd=resource&f=style.css')).toBe(true);
		expect(isBrowserOwnRequest('https://content-autofill.googleapis.com/v1/pages/ChRDaHJvbWUv?alt=proto')).toBe(true);
		expect(isBrowserOwnRequest('https://optimizationguide-pa.googleapis.com/v1:GetModels?key=x')).toBe(true);
	});

	it('keeps the app\'s and the service\'s requests', () => {
		expect(isNotOfTheFlow('http://127.0.0.1:5000/callback?code=abc')).toBe(false);
		expect(isNotOfTheFlow('http://localhost:4173/sso/student?response_type=code&client_id=x')).toBe(false);
		expect(isNotOfTheFlow('https://accounts.example.com/api/v3/me.json')).toBe(false);
		expect(isNotOfTheFlow('https://fonts.googleapis.com/css2?family=Inter')).toBe(false);
	});
});
