/**
 * Run by `npm test` before any test that drives a browser: a Chromium must be found (src/lib/chromium.ts). With
 * none, as root on Debian it installs Debian's `chromium`; anywhere else it stops with one line saying what to run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findChromium } from '../src/lib/chromium';

function run(command: string, args: string[]): boolean {
	const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
	return result.status === 0;
}

/** Root on Debian with apt-get on the PATH: the one case where installing a browser needs nobody's consent but ours. */
function canInstallDebianChromium(): boolean {
	if (process.getuid?.() !== 0 || !existsSync('/etc/debian_version')) return false;
	return spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

let found = findChromium();
if (!found.ok && !process.env['CHROMIUM_PATH'] && canInstallDebianChromium()) {
	console.log('No Chromium found; installing Debian\'s chromium with apt-get…');
	if (run('apt-get', ['update', '-q']) && run('apt-get', ['install', '-y', '-q', 'chromium'])) found = findChromium();
}
if (found.ok) {
	console.log(`Chromium for the browser tests: ${found.path}`);
} else {
	console.error(found.message);
	process.exit(1);
}
