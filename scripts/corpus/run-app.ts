/** Starts one corpus app as its own process and waits until it answers; a missing toolchain throws, naming the install. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { APPS, type AppId, type CorpusApp } from '../../tests/corpus/apps';

export interface RunningApp {
	origin: string;
	callbackUrl: string;
	/** What the app printed, for a failure's message. */
	output(): string;
	stop(): Promise<void>;
}

export interface AppSettings {
	authUrl: string;
	accountsUrl: string;
	clientId: string;
	clientSecret: string;
	port: number;
	bug: string;
}

/** The toolchains the apps need that are not on the PATH, each with how to install it. */
export function missingToolchains(appIds: readonly AppId[]): string[] {
	const needed = new Map(appIds.flatMap((id) => APPS[id].toolchain.map((t) => [t.command, t.install] as const)));
	return [...needed].filter(([command]) => spawnSync('sh', ['-c', `command -v ${command}`]).status !== 0).map(([command, install]) => `${command} (${install})`);
}

async function answers(origin: string): Promise<boolean> {
	try {
		await fetch(`${origin}/health-of-corpus-app`, { signal: AbortSignal.timeout(1000) });
		return true;
	} catch {
		return false;
	}
}

export async function startApp(appId: AppId, settings: AppSettings): Promise<RunningApp> {
	const app: CorpusApp = APPS[appId];
	const base: Record<string, string> = {
		AUTH_URL: settings.authUrl,
		ACCOUNTS_URL: settings.accountsUrl,
		CLIENT_ID: settings.clientId,
		CLIENT_SECRET: settings.clientSecret,
		PORT: String(settings.port),
		BUG: settings.bug
	};
	const env = { ...process.env, ...base, ...app.env?.(settings.bug, base) };
	const origin = `http://localhost:${settings.port}`;
	// Something else on the port would be driven in the app's place (and graded as it).
	if (await answers(origin)) throw new Error(`Port ${settings.port} is in use: stop what listens there, or move the apps with CORPUS_APP_PORT.`);
	const [command, ...args] = app.command.map((part) => part.replace('${PORT}', String(settings.port)));
	const child: ChildProcess = spawn(command!, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	let output = '';
	child.stdout!.on('data', (c) => (output += c));
	child.stderr!.on('data', (c) => (output += c));
	const stop = async () => {
		if (child.exitCode !== null || child.pid === undefined) return;
		const exited = new Promise((resolve) => child.once('exit', resolve));
		process.kill(-child.pid, 'SIGTERM'); // its process group: `go run` and `php -S` start children of their own
		await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
	};
	// `go run` compiles first: up to a minute on a busy machine.
	const deadline = Date.now() + 90_000;
	while (!(await answers(origin))) {
		if (child.exitCode !== null) throw new Error(`${appId} (BUG=${settings.bug}) exited with ${child.exitCode}:\n${output}`);
		if (Date.now() > deadline) {
			await stop();
			throw new Error(`${appId} (BUG=${settings.bug}) did not answer on ${origin} within 90 s:\n${output}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	return { origin, callbackUrl: `${origin}${app.callbackPath}`, output: () => output, stop };
}

/** Builds the apps that need it (once per run); a failed build throws with the compiler's output. */
export function buildApps(appIds: readonly AppId[]): void {
	for (const id of new Set(appIds)) {
		const app: CorpusApp = APPS[id];
		if (!app.build) continue;
		const [command, ...args] = app.build;
		const result = spawnSync(command!, args, { encoding: 'utf8' });
		if (result.status !== 0) throw new Error(`Building ${id} failed (${app.build.join(' ')}):\n${result.stdout}${result.stderr}`);
	}
}
