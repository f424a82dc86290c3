import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig, type Plugin } from 'vitest/config';

/**
 * In `npm run dev`, SvelteKit runs the server `init` hook (which starts the sandbox) on the first request; this
 * sends that request as soon as the dev server listens, so the sandbox is up without opening a page first.
 */
function startSandboxWithDevServer(): Plugin {
	return {
		name: 'sso-flow-explorer:start-sandbox',
		apply: 'serve',
		configureServer(server) {
			server.httpServer?.once('listening', () => {
				const address = server.httpServer?.address();
				if (address && typeof address === 'object') void fetch(`http://localhost:${address.port}/health`).catch(() => {});
			});
		}
	};
}

export default defineConfig({
	plugins: [sveltekit(), startSandboxWithDevServer()],
	// The highlighting worker loads shiki's themes and grammars with dynamic imports, which need ES module workers.
	worker: { format: 'es' },
	test: {
		include: ['src/**/*.test.ts'],
		environment: 'node',
		testTimeout: 20_000
	}
});
