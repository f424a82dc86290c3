import { appCheckStream } from '$lib/features/app-check/live';

/** POST /live/{client}/app-check: runs the app check for the client's app, streamed as NDJSON ($lib/server/app-check/live.ts). */
export const POST = (event) => appCheckStream(event, event.params.client);
