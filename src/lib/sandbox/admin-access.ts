/**
 * Who may administer the sandbox (its control API, and the explorer's control panel). With no admin token set (the
 * zero-configuration default), only this machine may: requests from loopback addresses. With SANDBOX_ADMIN_TOKEN
 * set (a shared deployment), a request must carry it: `Authorization: Bearer <token>` or `X-Sandbox-Admin-Token`,
 * compared in constant time. SANDBOX_CONTROL_API=off turns administration off altogether (elsewhere: 404).
 */
import { constantTimeEqual } from './store/random';
import { ADMIN_CREDENTIAL_HEADER } from '../http/secrets';

/** Shorter tokens could be guessed; the control API has no rate limit. */
export const MIN_ADMIN_TOKEN_LENGTH = 16;

/** 127.0.0.0/8, ::1, and IPv4 loopback mapped into IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
	if (!address) return false;
	const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
	return address === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** Whether `given` is the admin token, in time that does not depend on where they differ. */
export function adminTokenMatches(expected: string, given: string | null | undefined): boolean {
	return typeof given === 'string' && given !== '' && constantTimeEqual(expected, given);
}

/** The token a request carries: `Authorization: Bearer …` or the X-Sandbox-Admin-Token header. */
export function presentedAdminToken(header: (name: string) => string | null | undefined): string | null {
	const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header('authorization') ?? '')?.[1];
	return bearer ?? header(ADMIN_CREDENTIAL_HEADER) ?? null;
}

export type ControlAccess = { ok: true } | { ok: false; status: 401 | 403; error: string };

/** Whether a request to the control API may administer the sandbox. */
export function controlAccess(
	adminToken: string | null,
	request: { remoteAddress: string | undefined; header: (name: string) => string | null | undefined }
): ControlAccess {
	if (adminToken === null) {
		if (isLoopbackAddress(request.remoteAddress)) return { ok: true };
		return {
			ok: false,
			status: 403,
			error: 'The sandbox control API answers only requests from this machine unless the operator sets SANDBOX_ADMIN_TOKEN (then send it as Authorization: Bearer <token>).'
		};
	}
	if (adminTokenMatches(adminToken, presentedAdminToken(request.header))) return { ok: true };
	return { ok: false, status: 401, error: 'The sandbox control API needs the admin token: send Authorization: Bearer <SANDBOX_ADMIN_TOKEN> (or X-Sandbox-Admin-Token).' };
}
