/**
 * `npm run bench`: the sandbox under load, the explorer in Chromium, and memory after a million expired codes.
 * Prints each figure against its target and writes BENCHMARKS.md. Benchmarks report; a missed target is marked
 * MISS but does not fail the command. BENCH_ONLY=load,explorer,memory,redaction,har,engine runs a subset.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchExplorer, OVERHEAD_WARMUP_WALKS, PORT } from './explorer';
import { benchHarImport } from './har-import';
import { benchLoad } from './load';
import { WORKSPACES } from './load-sandbox';
import { benchMemory } from './memory';
import { benchManySignIns, benchRedaction } from './redaction';
import { benchEngine } from './engine-scale';
import { load, markdown, terminalTable, type Measurement, type Section } from './report';

const OUTPUT = fileURLToPath(new URL('../BENCHMARKS.md', import.meta.url));

const METHOD = [
	`- **Load.** On 127.0.0.1, two server processes besides the client's: a child holding a bare \`node:http\` server answering a fixed JSON body the size of a me.json answer and the peer, oauth2-mock-server (the most used OAuth 2 mock server on npm, its current 9.x, the version noted below; started as its README does, with one RS256 key), each on its own port; and ours as \`npm start\` runs it, the built explorer and both sandbox hosts in one process (\`node scripts/start.js\`, request log on, accounts host on port ${PORT + 2}) with a temporary \`DATA_DIR\`, whose database was prepared first with the fixtures, an access token and the grant codes (issued through the store, \`issueCode\`, in transactions of 5,000), and which was given ${WORKSPACES} workspaces through \`POST /sandbox/workspaces\` once it ran. autocannon runs in the parent process, so client and servers do not share an event loop; the figures are ratios between runs made by the same client in the same run. Every run is first made once for 3 s as a warm-up (the bare server and the peer too, so none is measured cold); then three rounds (\`BENCH_ROUNDS\`) of bare, the peer's \`GET /userinfo\` (a fixed answer), our me.json, our me.json with a live view subscribed (the explorer's \`/live/{client}/events\` stream for the bench client, read as a browser would), the peer's \`POST /token\`, our token exchange, and our token exchange with a live view subscribed alternate, 10 s each (\`BENCH_DURATION\`), 50 connections, no pipelining; each figure is the median of its rounds (every round is noted), because on this machine one bare run can differ from the next by a third. A run's rate is its answers over the time from its first answer to its last, timed by the client: autocannon's own duration is whole seconds when it stops after a number of requests, which had made every token figure 30,000 codes over 2 or 3 s. A token run stops after 10 s or when its 150,000 fresh codes (\`BENCH_TOKEN_CODES\`) are used, whichever comes first. The GETs send \`Authorization: Bearer\` and \`User-Agent\`; each of our token requests carries a different grant code, fed by autocannon's \`setupRequest\`, so every exchange is a first use that answers 200 and marks its code used in the database. The peer's token requests are its authorization_code grant with a different code each, as a form body; it checks neither code nor client, and signs an access token and an ID token. A run only counts if every answer was 2xx. Arrival on a live view: after the load runs (the log full), a live view of the bench client subscribed and caught up (quiet 1.5 s), 20 token exchanges of fresh codes one at a time, each timed from sending it to the first flow event the stream delivers after it, the next once the stream has been quiet 0.5 s (\`bench/live-arrival.ts\`). Startup: \`node bin/sso-flow-explorer.js --port ${PORT + 10} --data-dir <empty temporary directory>\` (what \`npx sso-flow-explorer\` runs, from the built tree), timed from the spawn until the explorer's, the authorisation host's and the accounts host's \`/health\` all answer 2xx (polled every 10 ms), three starts, the median, before the load runs.`,
	'- **Explorer.** `npx vite build`, then `node scripts/start.js` (explorer and both sandbox hosts in one process, as `npm start`) on ports ' +
		`${PORT}-${PORT + 2}` +
		' with a temporary `DATA_DIR`. The walk, in headless Chromium with a fresh context each time, after one warm-up walk: open `/`, click the link, sign in as student@example.com, Authorise, exchange, wait for the token exchange, read me.json, wait for its result. JavaScript per route: every script a fresh load of the route requests, measured as the precompressed `.gz` file adapter-node serves (gzip of the file when there is none), summed. Route overhead: the median time of `POST /api/walk/me` (which sends the request, annotates, masks and saves the run) minus the median time of a direct `GET /api/v3/me.json` to the sandbox with the same token, interleaved, from Node\'s fetch on the same machine, after Chromium has been closed (on two cores its processes compete with the server) and after ' +
		OVERHEAD_WARMUP_WALKS +
		' walks made the same way and set aside, as the load runs warm up (the first walks on a fresh server run slower; their figures are reported). The walk holds every exchange it makes, so the overhead is measured over fresh walks of 20 reads; one long walk shows how the cost grows with the walk.',
	'- **Memory.** A child process started with `--expose-gc` (every figure after a full collection) opens the store on a temporary file, adds the fixtures (as `npm start` does to a new database: a code binds a client and a user of its workspace) and issues a million codes (`BENCH_CODES`) in transactions of 10 000, then moves the sandbox clock past the 2 h validity and the store\'s 24 h purge grace. Nothing is purged on its own: the store purges up to 100 expired codes and 100 expired tokens each time it issues a code, so ordinary traffic (new codes, issued in transactions of 1 000) runs until no expired code is left; then the traffic stops for 1.5 s, past the checkpoint the store makes within a second of a purge (SQLite alone would copy the purge into the file only after 1 000 more pages written). Live data is the database\'s pages not on SQLite\'s free list; files on disk are the database file and its WAL.',
	'- **Saving a walk.** In this process, no server: walks of a token exchange then me.json reads, as the explorer records them, grown to 300 exchanges a step at a time and saved after each step to a run store on a temporary file, as the explorer saves them (`bench/redaction.ts`). Each figure is the median of ' +
		'`BENCH_REDACTION_WALKS` (30) walks: the explorer\'s save of the step that brings a walk to that length, and, for the same run under an id never seen, `redactRun` of the whole walk and its first save (redaction and the write of every exchange). A step\'s save redacts only the exchanges whose redaction could have changed and writes only the pieces that differ from what it last wrote for that run (`ExchangeMemo` in redact.ts, `WrittenPieces`), leaving the verdict the list triages by to the list, as the walk\'s route does. Then `redactRun` of runs of 50, 150 and 300 sign-ins, each with a code, tokens and a client secret of its own and a 40 KB page, as a HAR of many sign-ins brings (median of three): every value learnt is searched for in every text, so the cost per sign-in shows whether the redaction stays linear in the run.',
	'- **Importing a customer\'s HAR.** A HAR as browsers save it is generated into the OS\'s temporary directory (`src/lib/features/runs/testing/large-har.ts`): 100 MB of 2,000 entries, scripts and base64 images of other hosts with their bodies and cookies, the flow of the chrome-unrelated fixture in the middle. The built explorer (`node scripts/start.js`, ports as the explorer part) imports it as scripts do, `POST /api/import?kind=har` with the file streamed as the body from Node on the same machine, after one small import to warm the route; three rounds (`BENCH_HAR_ROUNDS`), the median time to the whole answer. Memory: the explorer process\'s VmRSS, sampled every 20 ms during the imports, its peak above what it held before the first. Then a HAR of 300 sign-ins, each with a code, tokens and a client secret of its own and a 40 KB page, three rounds. During every import the sandbox\'s accounts host is asked for /health every 20 ms; the longest wait for an answer is how long the import held the process\'s other listeners (the HAR is read in a worker thread, `har-import-thread.ts`).'
];

const PARTS: Record<string, (log: (line: string) => void) => Promise<{ measurements: Measurement[]; notes: string[] } | Measurement[]>> = {
	load: benchLoad,
	explorer: benchExplorer,
	memory: benchMemory,
	redaction: async (log) => [...(await benchRedaction(log)), ...benchManySignIns(log)],
	har: benchHarImport,
	engine: benchEngine
};

const TITLES: Record<string, string> = { load: 'Under load, beside oauth2-mock-server', explorer: 'Explorer', memory: 'Memory after a million expired codes', redaction: 'Saving a walk', har: 'Importing a customer\'s HAR', engine: 'The engine on thousands of exchanges of one code' };

async function main(): Promise<void> {
	const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
	const sections: Section[] = [];
	const loadBefore = load();
	for (const [name, run] of Object.entries(PARTS)) {
		if (only && !only.includes(name)) continue;
		const title = TITLES[name]!;
		console.log(`\n== ${title}`);
		const started = performance.now();
		try {
			const result = await run((line) => console.log(`   ${line}`));
			const { measurements, notes } = Array.isArray(result) ? { measurements: result, notes: [] } : result;
			sections.push({ title, measurements, notes });
		} catch (error) {
			console.error(error);
			sections.push({ title, measurements: [{ metric: `${title}: the benchmark failed`, measured: (error as Error).message, target: 'runs', pass: false }], notes: [] });
		}
		console.log(`   (${((performance.now() - started) / 1000).toFixed(0)} s)`);
	}
	console.log(`\n${terminalTable(sections)}\n`);
	const misses = sections.flatMap((s) => s.measurements).filter((m) => m.pass === false).length;
	console.log(misses === 0 ? 'Every target met.' : `${misses} target(s) MISSED (see above).`);
	const conditions = [
		`load average (1 min) at the start ${loadBefore} and the end ${load()}: anything above 0 is other work competing for the same cores`,
		...(only ? [`parts run: ${only.join(', ')} (BENCH_ONLY)`] : [])
	];
	console.log(conditions.join('\n'));
	writeFileSync(OUTPUT, markdown(sections, new Date(), METHOD, conditions));
	console.log(`Written to ${OUTPUT}.`);
}

await main();
