/**
 * Flows and runs of thousands of exchanges, for the scaling tests and the engine's benchmark (bench/engine-scale.ts):
 * an app that sends one grant code to the token endpoint again and again, which once made the engine quadratic.
 */
import type { RecordedExchange } from '../exchange';
import type { FlowRecord } from '../record';
import { exchange, flow } from '../test-helpers';

const SHARED_CODE = 'Zk3Qw9Lm2Xp7Rt5Vb8Nc4Hd6Jf1Gs0A';
const SHARED_LINK = `https://auth.example.com/sso/students?response_type=code&client_id=app&redirect_uri=${encodeURIComponent('https://app.example.com/cb')}`;

/**
 * A flow whose app sent one grant code to the token endpoint `n` times (the first accepted, the rest refused), a
 * millisecond apart: the shape that made the engine quadratic (issue 24).
 */
export function sharedCodeFlow(n: number): FlowRecord {
	const callback = `https://app.example.com/cb?code=${SHARED_CODE}`;
	const start = Date.parse('2026-01-01T10:00:00.000Z');
	const tokens = Array.from({ length: n }, (_, i): RecordedExchange => ({
		...exchange(
			'token',
			{
				method: 'POST',
				url: 'https://accounts.example.com/oauth/token',
				headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'app/1' },
				body: `grant_type=authorization_code&code=${SHARED_CODE}&client_id=app&redirect_uri=${encodeURIComponent('https://app.example.com/cb')}`
			},
			i === 0 ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{"access_token":"at-Yq2Lm9Xw4Rt8Kp3Vn6Bz1Cd","token_type":"Bearer"}' } : { status: 400, headers: { 'content-type': 'application/json' }, body: '{"error":"invalid_grant"}' },
			`token-${i + 1}`
		),
		startedAt: new Date(start + i + 1).toISOString()
	}));
	return flow({
		link: SHARED_LINK,
		callback: { url: callback, receivedAt: new Date(start).toISOString() },
		exchanges: [{ ...exchange('link', { url: SHARED_LINK }, { status: 200 }, 'link-1'), startedAt: new Date(start - 1000).toISOString() }, ...tokens]
	});
}

