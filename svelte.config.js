import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	kit: {
		adapter: adapter(),
		// Explorer routes that change state are same-origin only (SvelteKit's form CSRF check).
		csrf: { trustedOrigins: [] }
	}
};

export default config;
