import { describe, expect, it } from 'vitest';
import { toolCommand } from './tool-command';

describe('toolCommand', () => {
	it('names the npm script when npm ran it', () => {
		expect(toolCommand('app-check', { npm_lifecycle_event: 'app-check' })).toBe('npm run app-check --');
	});

	it('names the package command under npx (npm calls that event "npx") and when run directly', () => {
		expect(toolCommand('scenarios', { npm_lifecycle_event: 'npx' })).toBe('sso-flow-explorer scenarios');
		expect(toolCommand('app-check', {})).toBe('sso-flow-explorer app-check');
	});
});
