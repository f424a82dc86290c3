import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	kit: {
		adapter: adapter(),
		// Explorer routes that change state are same-origin only (SvelteKit's form CSRF check).
		csrf: { trustedOrigins: [] },
		// `npm run check` type-checks the benchmarks too (they import the app's own modules).
		typescript: {
			config: (tsconfig) => {
				tsconfig.include.push('../bench/**/*.ts');
			}
		}
	}
};

export default config;
