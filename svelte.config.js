import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	kit: {
		adapter: adapter(),
		// Explorer routes that change state are same-origin only (SvelteKit's form CSRF check).
		csrf: { trustedOrigins: [] },
		// Every page's Content-Security-Policy: scripts only from the explorer itself (SvelteKit adds a nonce or hash
		// for its inline start-up script), never framed (clickjacking; X-Frame-Options too, http-guards.ts), forms
		// posted only to the explorer (an injected form cannot send what a person types elsewhere; every form of the
		// explorer's posts to, and redirects within, its own origin). Styles allow inline: shiki's highlighted code
		// and Svelte's style attributes use them. The highlighter's worker is loaded from the explorer's own origin.
		csp: {
			mode: 'auto',
			directives: {
				'default-src': ['self'],
				'script-src': ['self'],
				'style-src': ['self', 'unsafe-inline'],
				'img-src': ['self', 'data:'],
				'font-src': ['self'],
				'connect-src': ['self'],
				'worker-src': ['self', 'blob:'],
				'object-src': ['none'],
				'base-uri': ['none'],
				'form-action': ['self'],
				'frame-ancestors': ['none']
			}
		},
		// `npm run check` type-checks the benchmarks too (they import the app's own modules).
		typescript: {
			config: (tsconfig) => {
				tsconfig.include.push('../bench/**/*.ts');
			}
		}
	}
};

export default config;
