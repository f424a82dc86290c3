// `npm pack` (prepack), after the explorer's build: bundles what the package runs without tsx into dist/: the two
// command-line tools and the embeddable sandbox, our modules inlined ($lib resolved) and every package left to
// node_modules (so each must be in "dependencies"); and the sandbox's types as one .d.ts.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');

/** `$lib/…` is SvelteKit's alias of src/lib. */
const svelteKitLib = {
	name: 'sveltekit-lib',
	setup(builder) {
		builder.onResolve({ filter: /^\$lib(\/|$)/ }, (args) =>
			builder.resolve(`./${args.path.replace(/^\$lib/, 'src/lib')}`, { resolveDir: root, kind: args.kind })
		);
	}
};

rmSync(dist, { recursive: true, force: true });
await build({
	absWorkingDir: root,
	entryPoints: { 'app-check': 'scripts/app-check.ts', scenarios: 'scripts/scenarios.ts', sandbox: 'src/lib/sandbox/embed.ts' },
	outdir: dist,
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	packages: 'external',
	plugins: [svelteKitLib],
	// The project's tsconfig extends SvelteKit's generated one, which a fresh clone has not generated yet.
	tsconfigRaw: {},
	logLevel: 'warning'
});

// The sandbox's declarations: embed.ts declares its public types itself, so its .d.ts is the whole of them.
const entry = join(root, 'src/lib/sandbox/embed.ts');
const program = ts.createProgram([entry], {
	declaration: true,
	emitDeclarationOnly: true,
	strict: true,
	skipLibCheck: true,
	target: ts.ScriptTarget.ES2022,
	module: ts.ModuleKind.ESNext,
	moduleResolution: ts.ModuleResolutionKind.Bundler,
	types: ['node']
});
let declarations = null;
program.emit(program.getSourceFile(entry), (_, text) => (declarations = text), undefined, true);
if (declarations === null || /^\s*import\b|\bimport\(/m.test(declarations)) {
	console.error('dist/sandbox.d.ts would import other modules: declare the public types of src/lib/sandbox/embed.ts in it.');
	process.exit(1);
}
ts.sys.writeFile(join(dist, 'sandbox.d.ts'), declarations);
console.log(`Bundled into dist/: ${['app-check.js', 'scenarios.js', 'sandbox.js', 'sandbox.d.ts'].join(', ')}`);
