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
	entryPoints: { 'app-check': 'scripts/app-check.ts', scenarios: 'scripts/scenarios.ts', sandbox: 'src/lib/embed/sandbox.ts' },
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

// The sandbox's declarations: its public types are the leaf embedded-sandbox.ts's, which imports nothing; the
// entry's own declarations (startSandbox) follow them, without the lines that import or re-export the leaf.
const entry = join(root, 'src/lib/embed/sandbox.ts');
const publicTypes = join(root, 'src/lib/embedded-sandbox.ts');
const program = ts.createProgram([entry], {
	declaration: true,
	emitDeclarationOnly: true,
	strict: true,
	skipLibCheck: true,
	target: ts.ScriptTarget.ES2022,
	module: ts.ModuleKind.ESNext,
	moduleResolution: ts.ModuleResolutionKind.Bundler,
	baseUrl: root,
	paths: { '$lib/*': ['src/lib/*'] },
	types: ['node']
});
const declarationsOf = (file) => {
	let text = null;
	program.emit(program.getSourceFile(file), (_, written) => (text = written), undefined, true);
	return text;
};
const fromPublicTypes = /^(?:import|export)\b[^;]*?\bfrom\s*['"]\$lib\/embedded-sandbox['"];?[ \t]*\n/gm;
const declarations = `${declarationsOf(publicTypes)}\n${declarationsOf(entry).replace(fromPublicTypes, '')}`;
if (/^\s*import\b|\bimport\(|\bfrom\s*['"]/m.test(declarations)) {
	console.error('dist/sandbox.d.ts would import other modules: declare the public types in src/lib/embedded-sandbox.ts, and export nothing else from src/lib/embed/sandbox.ts.');
	process.exit(1);
}
ts.sys.writeFile(join(dist, 'sandbox.d.ts'), declarations);
// The file must stand alone: a duplicate or a missing name is an error here, not in an integrator's editor.
const check = ts.createProgram([join(dist, 'sandbox.d.ts')], { strict: true, noEmit: true, types: [], lib: ['lib.es2022.d.ts'] });
const problems = ts.getPreEmitDiagnostics(check);
if (problems.length > 0) {
	console.error(ts.formatDiagnostics(problems, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' }));
	process.exit(1);
}
console.log(`Bundled into dist/: ${['app-check.js', 'scenarios.js', 'sandbox.js', 'sandbox.d.ts'].join(', ')}`);
