import { appCheckStream } from '$lib/features/app-check/live';
import { apiRoute } from '$lib/platform/errors';
import type { RequestHandler } from './$types';

/** POST /live/{client}/app-check: runs the app check for the client's app, streamed as NDJSON (features/app-check/live.ts). */
export const POST: RequestHandler = apiRoute((event) => appCheckStream(event, event.params.client));
