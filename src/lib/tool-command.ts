/**
 * How a command-line tool's usage names the command that ran it: `npm run <tool> --` when npm ran the script (in a
 * clone of the repository), else the package's own command, as `npx sso-flow-explorer <tool>` and an installed
 * package run it.
 */
export function toolCommand(tool: 'app-check' | 'scenarios', env: Record<string, string | undefined>): string {
	return env['npm_lifecycle_event'] === tool ? `npm run ${tool} --` : `sso-flow-explorer ${tool}`;
}
