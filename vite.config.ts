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

/**
 * The browser's build in a few files: Svelte's and SvelteKit's runtime in one chunk, every module two or more routes
 * share in another, each route's own code in its node. Split by module, a page load asked for 10 to 25 small
 * scripts, and each request cost a walk's page load more than the bytes did (BENCHMARKS.md: the UI walk). The
 * server's build keeps its default chunks.
 */
function fewerClientChunks(): Plugin {
	return {
		name: 'sso-flow-explorer:fewer-client-chunks',
		apply: 'build',
		config(config) {
			if (config.build?.ssr) return;
			return {
				build: {
					rolldownOptions: {
						output: {
							codeSplitting: {
								groups: [
									{ name: 'framework', test: /node_modules[\\/](svelte|@sveltejs[\\/]kit|esm-env|devalue|clsx)[\\/]/, priority: 2 },
									{ name: 'shared', minShareCount: 2, priority: 1 }
								]
							}
						}
					}
				}
			};
		}
	};
}

export default defineConfig({
	plugins: [sveltekit(), startSandboxWithDevServer(), fewerClientChunks()],
	// The highlighting worker loads shiki's themes and grammars with dynamic imports, which need ES module workers.
	worker: { format: 'es' },
	test: {
		include: ['src/**/*.test.ts'],
		environment: 'node',
		testTimeout: 20_000
	}
});
