// The corpus harness's own unit tests (the project's vitest config runs src/ only). `$lib` as SvelteKit maps it,
// since the harness runs the explorer's own modules.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
	resolve: { alias: { $lib: fileURLToPath(new URL('../../src/lib', import.meta.url)) } },
	test: { include: ['scripts/corpus/**/*.test.ts'] }
});
