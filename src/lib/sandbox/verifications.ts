import type { Supergroup } from '../protocol';
import type { SandboxVerification } from './store';

/**
 * Sandbox choice 'active-verification': a verification is active while `expires_on` (the first day it is no
 * longer valid, 2.4) is after today on the sandbox clock. ISO dates compare correctly as strings.
 */
export function activeVerifications(verifications: readonly SandboxVerification[], today: string): SandboxVerification[] {
	return verifications.filter((v) => v.expires_on > today);
}

export function isActiveIn(verifications: readonly SandboxVerification[], supergroup: Supergroup, today: string): boolean {
	return activeVerifications(verifications, today).some((v) => v.supergroup === supergroup);
}
