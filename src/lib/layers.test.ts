/**
 * The layers of `src/lib` and what each may import: the rule file. Every import in `src/` (static `import … from`,
 * `export … from`, bare `import '…'` and `import('…')`, type-only ones included) is read, resolved (`$lib/…` and
 * relative paths) and checked. `npm run check` runs this test too. docs/architecture.md draws the same
 * layers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const LIB = 'src/lib';

/**
 * What each layer of `src/lib` may import besides itself and the leaves. A leaf is a file directly in `src/lib`
 * (`recent.ts`, `dates.ts`, `fuzzing.ts`): it imports no other module of ours, and anyone may import it. A layer is a
 * folder of `src/lib`, except `features/`: each feature (`features/walk`, …) is a layer, and so is its pure half
 * (`features/walk/pure`), which runs in the browser too.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
	/** The interface as data. */
	protocol: [],
	/** HTTP as recorded (headers, requests, responses, MASK), shared by the explorer and the sandbox. */
	http: ['protocol'],
	/** The explorer's pure flow engine (browser and server). */
	flow: ['protocol', 'http'],
	/** Opening SQLite files soundly (integrity check, health): shared by the sandbox and the saved runs. */
	sqlite: [],
	/** The service implementation: nothing of the explorer. */
	sandbox: ['protocol', 'http', 'sqlite'],
	/** The package's embeddable sandbox: the sandbox's helpers with the flow engine's diagnosis of its log. */
	embed: ['protocol', 'http', 'flow', 'sandbox'],
	/** Types of what the server hands to components. */
	view: ['protocol', 'http'],
	/** UI pieces: never server code nor the sandbox, not even for a type; a feature's pure half is theirs to use. */
	components: ['protocol', 'http', 'flow', 'view', 'features/*/pure'],
	/** A feature's pure half: no Node, no sandbox, no server; another feature's pure half through its index. */
	'features/*/pure': ['protocol', 'http', 'flow', 'view', 'features/*/pure'],
	/** What every feature's server side uses: configuration, errors, sessions, hooks, streams, the outbound proxy. */
	platform: ['protocol', 'http', 'flow', 'sandbox', 'sqlite', 'view', 'features/*/pure'],
	/** A feature's server side: its pure half, the platform, the shared layers; another feature through its index. */
	'features/*': ['protocol', 'http', 'flow', 'sandbox', 'sqlite', 'view', 'platform', 'features/*', 'features/*/pure']
};
/** Outside `src/lib`: routes and the app's own files (hooks) may import anything. */
const ANYTHING = new Set(['routes', 'app']);
/**
 * The composition root: creates the long-lived services (the sandbox, the sessions, the saved runs' store), so it
 * alone of the platform names a feature.
 */
const COMPOSITION_ROOT = join(LIB, 'platform', 'services.ts');

type Layer =
	| { kind: 'folder'; name: string; path: string }
	| { kind: 'leaf'; name: string; path: string }
	| { kind: 'outside'; name: string; path: string };

function layerOf(path: string): Layer {
	const inLib = relative(LIB, path).split(sep);
	if (inLib[0] === '..') return { kind: 'outside', name: path.startsWith('src/routes/') ? 'routes' : 'app', path };
	if (inLib.length === 1) return { kind: 'leaf', name: inLib[0]!.replace(/(\.test)?\.ts$/, ''), path };
	if (inLib[0] === 'features' && inLib.length > 1) return { kind: 'folder', name: inLib[2] === 'pure' ? `features/${inLib[1]}/pure` : `features/${inLib[1]}`, path };
	return { kind: 'folder', name: inLib[0]!, path };
}

/** The rule name a layer goes by: `features/walk` → `features/*`. */
const ruleName = (name: string) => name.replace(/^features\/[^/]+/, 'features/*');
const featureOf = (name: string) => (name.startsWith('features/') ? name.split('/')[1]! : null);
/** A feature's index (`features/x/index.ts`, `features/x/pure/index.ts`, or the folder itself): the one door into it. */
const isIndex = (path: string) => /^src\/lib\/features\/[^/]+(\/pure)?(\/index(\.ts)?)?$/.test(path);

/** Layers that also run in the browser: they import no Node module (`node:…`), tests aside. */
const BROWSER_SAFE = ['protocol', 'flow', 'view', 'components', 'features/*/pure'];

/** Why `file` may not import the package `specifier`, or null when it may. */
function packageBreach(from: Layer, specifier: string): string | null {
	if (from.kind !== 'folder' || !BROWSER_SAFE.includes(ruleName(from.name)) || from.path.endsWith('.test.ts')) return null;
	return specifier.startsWith('node:') ? `${from.name}/ runs in the browser too: no Node module (${specifier})` : null;
}

/** Why `from` may not import `to`, or null when it may. */
function breach(from: Layer, to: Layer): string | null {
	if (to.kind === 'outside') return from.kind === 'outside' ? null : `${LIB} may not import from outside it`;
	if (from.kind === 'outside') return ANYTHING.has(from.name) ? null : `${from.name} has no rule`;
	if (to.kind === 'leaf') return null;
	if (from.kind === 'leaf') return `the leaf ${from.name} imports no layer`;
	if (from.name === to.name) return null;
	// A test may use every layer of its own feature (a pure half's tests, the feature's test builders).
	if (from.path.endsWith('.test.ts') && featureOf(from.name) !== null && featureOf(from.name) === featureOf(to.name)) return null;
	if (from.path.replace(/\.ts$/, '') === COMPOSITION_ROOT.replace(/\.ts$/, '') && to.name.startsWith('features/')) return null;
	const allowed = MAY_IMPORT[ruleName(from.name)];
	if (!allowed) return `${from.name}/ has no rule in layers.test.ts`;
	if (!allowed.includes(ruleName(to.name))) return `${from.name}/ may import only ${allowed.join(', ') || 'nothing of ours'}, not ${to.name}/`;
	// Components reach a pure half's modules directly: an index would bundle all of it (and zod) into every page.
	const crossing = featureOf(from.name) !== null && featureOf(to.name) !== null && featureOf(to.name) !== featureOf(from.name);
	// A test may reach into another feature's test builders.
	if (crossing && !isIndex(to.path) && !from.path.endsWith('.test.ts')) return `${from.name}/ reaches ${to.name}/ only through its index (${to.name}/index.ts)`;
	return null;
}

/** Block comments, and line comments that start a line (not `//` inside a URL). */
const COMMENTS = /\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm;
const IMPORTS = [
	/\b(?:import|export)\s+(?:type\s+)?[\w*{}\s,$]*?\bfrom\s*['"]([^'"]+)['"]/g,
	/\bimport\s*['"]([^'"]+)['"]/g,
	/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g
];

function importsOf(source: string): string[] {
	const code = source.replace(COMMENTS, '');
	return IMPORTS.flatMap((pattern) => [...code.matchAll(pattern)].map((m) => m[1]!));
}

/** The project path an import names, or null for a package (or `$app/…`, `$env/…`). */
function resolve(file: string, specifier: string): string | null {
	const path = specifier.replace(/\?.*$/, '');
	if (path.startsWith('$lib/') || path === '$lib') return join(LIB, path.slice('$lib'.length));
	if (path.startsWith('.')) return join(dirname(file), path);
	return null;
}

/** The source files under `dir`, as paths from the project's root. */
function sourceFiles(root: string, dir: string): string[] {
	return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(root, path);
		return /\.(ts|js|svelte)$/.test(entry.name) ? [path] : [];
	});
}

/** Every import that breaks a rule, as `file imports 'specifier': why`. This file's examples are not imports. */
function breaches(root: string): string[] {
	const files = sourceFiles(root, 'src').filter((file) => file !== join(LIB, 'layers.test.ts'));
	return files.flatMap((file) =>
		importsOf(readFileSync(join(root, file), 'utf8')).flatMap((specifier) => {
			const target = resolve(file, specifier);
			const why = target === null ? packageBreach(layerOf(file), specifier) : breach(layerOf(file), layerOf(target));
			return why ? [`${file} imports '${specifier}': ${why}`] : [];
		})
	);
}

describe('layers', () => {
	const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

	it('every import in src/ follows the rules', () => {
		expect(breaches(root)).toEqual([]);
	});

	it('reads every form of import, type-only ones included', () => {
		const source = [
			"import { a } from '$lib/platform/a';",
			"import type {\n\tB,\n\tC\n} from '../sandbox/b';",
			"export { d } from './d';",
			"export type * from '$lib/protocol/schemas';",
			"import './app.css';",
			"const e = await import('$lib/platform/e');",
			"import F from './f.worker?worker';",
			'// import { g } from "$lib/platform/g";',
			"/* import { h } from '$lib/platform/h'; */",
			"const url = 'https://example.com'; // import nothing"
		].join('\n');
		expect(importsOf(source)).toEqual(['$lib/platform/a', '../sandbox/b', './d', '$lib/protocol/schemas', './f.worker?worker', './app.css', '$lib/platform/e']);
	});

	it('names what breaks a rule', () => {
		const component = layerOf('src/lib/components/panel/UserForm.svelte');
		expect(breach(component, layerOf('src/lib/features/sandbox-admin/panel'))).toBe(
			'components/ may import only protocol, http, flow, view, features/*/pure, not features/sandbox-admin/'
		);
		expect(breach(component, layerOf('src/lib/features/runs/pure/index'))).toBeNull();
		expect(breach(layerOf('src/lib/features/live/live.ts'), layerOf('src/lib/features/runs/controller'))).toMatch(/only through its index/);
		expect(breach(layerOf('src/lib/features/live/live.ts'), layerOf('src/lib/features/runs/index'))).toBeNull();
		expect(breach(layerOf('src/lib/features/runs/pure/run.ts'), layerOf('src/lib/platform/config'))).toMatch(/features\/runs\/pure\/ may import only/);
		expect(breach(layerOf('src/lib/platform/hooks.ts'), layerOf('src/lib/features/walk/index'))).toMatch(/platform\/ may import only/);
		expect(breach(layerOf('src/lib/platform/services.ts'), layerOf('src/lib/features/runs/store'))).toBeNull();
		expect(packageBreach(layerOf('src/lib/features/runs/pure/har/har.ts'), 'node:fs')).toMatch(/no Node module/);
		expect(packageBreach(layerOf('src/lib/features/runs/store.ts'), 'node:fs')).toBeNull();
		expect(breach(layerOf('src/lib/sandbox/mask.ts'), layerOf('src/lib/flow/exchange'))).toMatch(/sandbox\/ may import only protocol, http/);
		expect(breach(layerOf('src/lib/embed/sandbox.ts'), layerOf('src/lib/flow/verdict'))).toBeNull();
		expect(breach(layerOf('src/lib/embed/sandbox.ts'), layerOf('src/lib/platform/config'))).toMatch(/embed\/ may import only protocol, http, flow, sandbox/);
		expect(breach(layerOf('src/lib/protocol/errors.ts'), layerOf('src/lib/http/exchange'))).toMatch(/nothing of ours/);
		expect(breach(layerOf('src/lib/recent.ts'), layerOf('src/lib/flow/view'))).toMatch(/leaf/);
		expect(breach(layerOf('src/lib/newfolder/x.ts'), layerOf('src/lib/flow/view'))).toMatch(/no rule/);
		expect(breach(layerOf('src/routes/+page.svelte'), layerOf('src/lib/features/walk/walk'))).toBeNull();
		expect(breach(component, layerOf('src/lib/recent'))).toBeNull();
	});
});
