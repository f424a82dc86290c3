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
 * What each folder of `src/lib` may import besides itself and the leaves. A leaf is a file directly in `src/lib`
 * (`recent.ts`, `dates.ts`, `fuzzing.ts`): it imports no other module of ours, and anyone may import it.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
	/** The interface as data. */
	protocol: [],
	/** HTTP as recorded (headers, requests, responses, MASK), shared by the explorer and the sandbox. */
	http: ['protocol'],
	/** The explorer's pure flow engine (browser and server). */
	flow: ['protocol', 'http'],
	/** The support toolkit, pure. */
	support: ['protocol', 'http', 'flow'],
	/** The scenario library and its pure companions (curl examples, reproduce map, report). */
	scenarios: ['protocol', 'http', 'flow', 'support'],
	/** Opening SQLite files soundly (integrity check, health): shared by the sandbox and the saved runs. */
	sqlite: [],
	/** The service implementation: nothing of the explorer. */
	sandbox: ['protocol', 'http', 'sqlite'],
	/** Types of what the server hands to components (the sandbox panel's). */
	view: ['protocol', 'http'],
	/** UI pieces: never server code nor the sandbox, not even for a type. */
	components: ['protocol', 'http', 'flow', 'support', 'scenarios', 'view'],
	/** Explorer server-only code: anything in lib but components. */
	server: ['protocol', 'http', 'flow', 'support', 'scenarios', 'sandbox', 'sqlite', 'view']
};
/** Outside `src/lib`: routes and the app's own files (hooks) may import anything. */
const ANYTHING = new Set(['routes', 'app']);

type Layer = { kind: 'folder'; name: string } | { kind: 'leaf'; name: string } | { kind: 'outside'; name: string };

function layerOf(path: string): Layer {
	const inLib = relative(LIB, path).split(sep);
	if (inLib[0] === '..') return { kind: 'outside', name: path.startsWith('src/routes/') ? 'routes' : 'app' };
	if (inLib.length === 1) return { kind: 'leaf', name: inLib[0]!.replace(/(\.test)?\.ts$/, '') };
	return { kind: 'folder', name: inLib[0]! };
}

/** Why `from` may not import `to`, or null when it may. */
function breach(from: Layer, to: Layer): string | null {
	if (to.kind === 'outside') return from.kind === 'outside' ? null : `${LIB} may not import from outside it`;
	if (from.kind === 'outside') return ANYTHING.has(from.name) ? null : `${from.name} has no rule`;
	if (to.kind === 'leaf') return null;
	if (from.kind === 'leaf') return `the leaf ${from.name} imports no layer`;
	if (from.name === to.name) return null;
	const allowed = MAY_IMPORT[from.name];
	if (!allowed) return `${from.name}/ has no rule in layers.test.ts`;
	return allowed.includes(to.name) ? null : `${from.name}/ may import only ${allowed.join(', ') || 'nothing of ours'}, not ${to.name}/`;
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
			const why = target === null ? null : breach(layerOf(file), layerOf(target));
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
			"import { a } from '$lib/server/a';",
			"import type {\n\tB,\n\tC\n} from '../sandbox/b';",
			"export { d } from './d';",
			"export type * from '$lib/protocol/schemas';",
			"import './app.css';",
			"const e = await import('$lib/server/e');",
			"import F from './f.worker?worker';",
			'// import { g } from "$lib/server/g";',
			"/* import { h } from '$lib/server/h'; */",
			"const url = 'https://example.com'; // import nothing"
		].join('\n');
		expect(importsOf(source)).toEqual(['$lib/server/a', '../sandbox/b', './d', '$lib/protocol/schemas', './f.worker?worker', './app.css', '$lib/server/e']);
	});

	it('names what breaks a rule', () => {
		const component = layerOf('src/lib/components/panel/UserForm.svelte');
		expect(breach(component, layerOf('src/lib/server/panel'))).toBe('components/ may import only protocol, http, flow, support, scenarios, view, not server/');
		expect(breach(layerOf('src/lib/sandbox/mask.ts'), layerOf('src/lib/flow/exchange'))).toMatch(/sandbox\/ may import only protocol, http/);
		expect(breach(layerOf('src/lib/protocol/errors.ts'), layerOf('src/lib/http/exchange'))).toMatch(/nothing of ours/);
		expect(breach(layerOf('src/lib/recent.ts'), layerOf('src/lib/flow/view'))).toMatch(/leaf/);
		expect(breach(layerOf('src/lib/newfolder/x.ts'), layerOf('src/lib/flow/view'))).toMatch(/no rule/);
		expect(breach(layerOf('src/routes/+page.svelte'), layerOf('src/lib/server/walk'))).toBeNull();
		expect(breach(component, layerOf('src/lib/recent'))).toBeNull();
	});
});
