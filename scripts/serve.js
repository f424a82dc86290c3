// Runs the built explorer (build/): `npm start` after its build check, and the package's `npx sso-flow-explorer`.
// The built app starts the sandbox's two hosts itself (src/hooks.server.ts), so one process serves all three. The
// explorer's server is the app's own (src/lib/platform/explorer-server.ts), around adapter-node's handler: it binds
// HOST, checks the Host header and bounds slow clients, which adapter-node's build/index.js does not.

// adapter-node assumes https when ORIGIN is unset; the explorer is served over plain http by default.
process.env.ORIGIN ??= process.env.PUBLIC_ORIGIN ?? `http://localhost:${process.env.PORT ?? 3000}`;
// Each route has its own body limit (src/lib/platform/body-limits.ts), the HAR import's far above adapter-node's one.
process.env.BODY_SIZE_LIMIT = 'Infinity';
const { handler } = await import(new URL('../build/handler.js', import.meta.url).href); // runs the app's init: configuration, sandbox, sessions
await globalThis[Symbol.for('sso-flow-explorer.serve')](handler);
