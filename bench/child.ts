/** Starting a TypeScript child process (through tsx) and waiting for its first IPC message. */
import { fork, type ChildProcess } from 'node:child_process';

export interface Child<T> {
	message: T;
	process: ChildProcess;
	stop(): Promise<void>;
}

export function startChild<T>(file: string, args: string[] = [], nodeOptions: string[] = []): Promise<Child<T>> {
	const child = fork(new URL(file, import.meta.url), args, { execArgv: ['--import', 'tsx', ...nodeOptions], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
	const stop = () =>
		new Promise<void>((resolve) => {
			if (child.exitCode !== null) return resolve();
			child.once('exit', () => resolve());
			child.disconnect();
		});
	return new Promise((resolve, reject) => {
		child.once('message', (message) => resolve({ message: message as T, process: child, stop }));
		child.once('exit', (code) => reject(new Error(`${file} exited (${code}) before it was ready`)));
	});
}
