/**
 * The live page's app check (`POST /live/{client}/app-check`): the same run as `npm run app-check`, started from
 * the explorer for one client of the sandbox, streamed as NDJSON (scenarios/app-check/stream.ts).
 *
 * Who may start it follows the sandbox panel (sandbox-admin.ts): the client must be in the workspace the session
 * administers (its own workspace, by the key the session holds, or the default one for the sandbox's
 * administrator), and a read-only workspace (public mode's default) is refused, since the check sets outcome rules
 * on the client. The start URL must be an origin the app check drives (origins.ts). One check runs at a time on a
 * server (each is a Chromium; slot.ts says who may take it next and when it frees): it stops at its time limit, and
 * when the page that started it goes away (the stream closed, the request aborted).
 */
import type { RequestEvent } from '@sveltejs/kit';
import { z } from 'zod';
import { APP_CHECKS } from '$lib/features/app-check/pure/checks';
import { redact } from '$lib/features/app-check/pure/evidence';
import { httpUrlProblem } from '$lib/features/app-check/options';
import { appCheckExitCode } from '$lib/features/app-check/pure/judge';
import { appCheckSummary } from '$lib/features/app-check/pure/report';
import type { AppCheckStreamLine } from '$lib/features/app-check/pure/stream';
import { config } from '../../platform/config';
import { sessionWorkspaceOf } from '../../platform/explorer-session';
import { ndjsonResponse } from '../../platform/streams/ndjson';
import { clientScope } from '../sandbox-admin';
import { clientAddress } from '../../platform/client-address';
import { APP_CHECK_TIME_LIMIT_MS, runAppCheck } from './driver';
import { checkAppUrl } from './origins';
import { visitorOf } from '$lib/http/visitor';
import { CheckSlot } from './slot';
import { errorFor, errorResponse } from '../../platform/errors';
import { readJsonBody } from '../../platform/json-body';

const Body = z.strictObject({
	start_url: z
		.string()
		.trim()
		.min(1, 'start_url is required: where a user starts signing in to your app')
		.max(2000)
		.superRefine((value, ctx) => {
			const problem = httpUrlProblem(value);
			if (problem) ctx.addIssue({ code: 'custom', message: problem });
		}),
	click: z.string().trim().max(500).optional(),
	only: z.array(z.enum(APP_CHECKS.map((c) => c.id) as [string, ...string[]])).min(1).optional()
});

/** What a run may take past its time limit to close its browser and clear its outcome rule. */
const WIND_DOWN_MS = 10_000;
const slot = new CheckSlot(APP_CHECK_TIME_LIMIT_MS + WIND_DOWN_MS);

/** What the body of a request to start a check looks like. */
const START_URL_EXAMPLE = '{"start_url": "http://localhost:4000/login"}';

const refuse = (status: number, message: string, headers: Record<string, string> = {}) => errorResponse(errorFor(status, message), headers);

export async function appCheckStream(event: RequestEvent, clientId: string): Promise<Response> {
	const scope = await clientScope(event, clientId);
	const { client } = scope;
	if (scope.readOnly) return refuse(403, 'The default workspace is read-only on this public sandbox: register your client in your own workspace to check your app.');
	if ((event.request.headers.get('content-type') ?? '').split(';')[0]!.trim() !== 'application/json') {
		return refuse(415, `Send the start URL as JSON: ${START_URL_EXAMPLE}.`);
	}
	const body = await readJsonBody(event.request, Body, START_URL_EXAMPLE);
	const cfg = config();
	// The URL first: a request refused for it never waits for the slot (nor keeps a place for its caller).
	const allowed = await checkAppUrl(body.start_url, cfg);
	if (!allowed.ok) return refuse(400, allowed.message);
	// Claimed with no await between the test and the taking, so two requests cannot both take it; released when
	// the run ends, or here when the request is refused before the run starts.
	const address = clientAddress(event);
	const claim = slot.claim(event.locals.sessionId ?? address ?? 'unknown', visitorOf(address));
	if (!claim.ok) return refuse(409, claim.message, { 'retry-after': String(claim.retryAfterSeconds) });
	let started = false;
	try {
		const { member } = await sessionWorkspaceOf(event.locals.sessionId);
		const workspaceKey = member?.key ?? null;
		const adminToken = workspaceKey ? null : cfg.sandboxService.adminToken;
		const known = [workspaceKey, adminToken, client.client_secret].filter((v): v is string => v !== null);
		const checks = body.only ? APP_CHECKS.filter((c) => body.only!.includes(c.id)) : [...APP_CHECKS];
		started = true;
		return ndjsonResponse<AppCheckStreamLine>(
			async (send, closed) => {
				send({ type: 'started', checks: checks.map((c) => ({ id: c.id, title: c.title })) });
				try {
					const outcome = await runAppCheck({
						startUrl: body.start_url,
						click: body.click || null,
						...cfg.sandbox,
						workspaceKey,
						adminToken,
						checks,
						config: cfg,
						startCheck: allowed,
						secrets: [client.client_secret],
					expectedClientId: clientId,
						onResult: (result) => send({ type: 'result', result }),
						signal: AbortSignal.any([closed, event.request.signal])
					});
					send({ type: 'done', summary: appCheckSummary(outcome.results), info: outcome.info, passed: appCheckExitCode(outcome.results) === 0 });
				} catch (error) {
					// A refused origin, a missing Chromium, a sandbox that refused: each message says what to do.
					send({ type: 'error', message: `The app check could not run: ${error instanceof Error ? error.message : String(error)}` });
				} finally {
					claim.release();
				}
			},
			(line) => redact(JSON.stringify(line), known)
		);
	} finally {
		if (!started) claim.release();
	}
}
