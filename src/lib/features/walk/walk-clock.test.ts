import { describe, expect, it } from 'vitest';
import type { SandboxWorkspace } from '$lib/sandbox/store';
import { walkClockWorkspace } from './walk-clock';

const workspace = (id: string) => ({ id }) as SandboxWorkspace;
const [defaultWorkspace, mine, theirs] = [workspace('default'), workspace('mine'), workspace('theirs')];

describe('walkClockWorkspace', () => {
	it("is the client's workspace when it is the session's own", () => {
		expect(walkClockWorkspace(mine, mine)).toBe(mine);
	});

	it("is the default workspace for its clients, whose clock every visitor's walk shows", () => {
		expect(walkClockWorkspace(defaultWorkspace, mine)).toBe(defaultWorkspace);
		expect(walkClockWorkspace(defaultWorkspace, defaultWorkspace)).toBe(defaultWorkspace);
	});

	it("is the session's own for another workspace's private client, whoever the session is", () => {
		expect(walkClockWorkspace(theirs, mine)).toBe(mine);
		expect(walkClockWorkspace(theirs, defaultWorkspace)).toBe(defaultWorkspace);
	});
});
