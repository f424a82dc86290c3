/**
 * Evidence added to a saved run from its page (support/join.ts joins it): the integrator's curl commands and raw
 * HTTP exchanges, a server-side HAR (read as it streams, like the import), the sandbox's own log of the run's
 * client, and an unanswered request sent from the run through the outbound proxy (allowlist, SSRF guard) for its
 * answer. Only the run's owner adds to it; the run is redacted whole again before it is stored, and its permalink
 * stays. Nothing answered from here carries a secret: the page reloads the stored, redacted run.
 */
import { json, type RequestEvent } from '@sveltejs/kit';
import { z } from 'zod';
import type { RecordedExchange } from '$lib/flow/exchange';
import { linkParameter } from '$lib/flow/record';
import { requestClientId } from '$lib/flow/request-params';
import { parseCurl, parseRawHttp, readCurl, readRawHttp } from '$lib/features/runs/pure/curl-import';
import { MAX_HAR_BYTES } from '$lib/features/runs/pure/har/har';
import { joinEvidence, type Evidence } from '$lib/features/runs/pure/join';
import { onSandboxHosts, sandboxLogEvidence } from '$lib/features/runs/pure/sandbox-log-evidence';
import { headersToSend, requestToResend } from '$lib/features/runs/pure/resend';
import { retitleAfterJoin } from '$lib/features/runs/pure/triage';
import type { ImportResult, Run } from '$lib/features/runs/pure/run';
import { LOG_CAPACITY } from '$lib/sandbox/log';
import { chunksOf, readBodyUpTo, DEFAULT_BODY_LIMIT, tooLarge } from '../../platform/body-limits';
import { clientWorkspace } from '../../platform/client-workspace';
import { config } from '../../platform/config';
import { send, type OutboundRequest } from '../../platform/outbound/outbound';
import { holdSecret, type HeldSecret } from '../../platform/outbound/held-secret';
import { mayReadWorkspaceLog } from '../sandbox-admin';
import type { RunStore } from './store';
import { services } from '../../platform/services';
import { ownsRun, storedRun } from './controller';
import { errorFor, forbidden } from '../../platform/errors';
import { jsonParse } from '$lib/http/json';

/** The run, for its owner only: anyone else may read it by its permalink, never add to it. */
function ownedRun(runs: RunStore, id: string, sessionId: string | undefined): { run: Run; owner: string } {
	const found = storedRun(runs, id);
	if (found.owner === null || !ownsRun(found.owner, sessionId))
		throw forbidden('Only the person who saved this run may add evidence to it. Import the evidence as a run of your own at /runs.');
	return { run: found.run, owner: found.owner };
}

const EvidenceRequest = z.discriminatedUnion('kind', [
	z.object({
		kind: z.enum(['curl', 'http']),
		text: z.string().min(1, 'the pasted text is empty'),
		/** Send the pasted request now (through the outbound proxy) and add it with its answer. */
		send: z.boolean().optional()
	}),
	z.object({ kind: z.literal('sandbox-log') }),
	z.object({ kind: z.literal('send'), exchangeId: z.string().min(1).max(200) })
]);

type Outcome = { ok: true; evidence: Evidence; secrets?: string[] } | { ok: false; status: number; message: string };

const refused = (status: number, message: string): Outcome => ({ ok: false, status, message });

/** A pasted exchange: placed by what it matches, or sent now and placed by its time. */
async function pasted(kind: 'curl' | 'http', text: string, sendNow: boolean): Promise<Outcome> {
	if (!sendNow) {
		const result = kind === 'curl' ? parseCurl(text) : parseRawHttp(text);
		return result.ok ? { ok: true, evidence: { source: kind, timed: false, record: result.run, redactions: result.run.redactions } } : refused(400, result.message);
	}
	// Unredacted, to send it as pasted: only the exchange sent, redacted with the run, is kept.
	const read: ImportResult = kind === 'curl' ? readCurl(text) : readRawHttp(text);
	if (!read.ok) return refused(400, read.message);
	const exchange = await sendAgain(read.run.exchanges[0]!, read.run.exchanges[0]!.request);
	if (typeof exchange === 'string') return refused(400, exchange);
	return { ok: true, evidence: { source: 'sent', timed: true, record: { link: null, callback: null, exchanges: [exchange] }, redactions: [] } };
}

const SENDABLE = new Set(['GET', 'POST', 'DELETE']);

/** The request sent through the outbound proxy, recorded; or why it cannot be sent. `holds`: the secrets put back in it. */
async function sendAgain(original: RecordedExchange, request: RecordedExchange['request'], holds: readonly HeldSecret[] = []): Promise<RecordedExchange | string> {
	const method = request.method.toUpperCase();
	if (!SENDABLE.has(method)) return `A ${method} request cannot be sent from the explorer: only GET, POST and DELETE.`;
	const outbound: OutboundRequest = { method: method as OutboundRequest['method'], url: request.url, headers: headersToSend(request), body: request.body };
	const exchange = await send(outbound, { config: config(), step: original.step, label: `${original.label}, sent from the run`, holds });
	return { ...exchange, evidence: { source: 'sent', timed: true, matchedBy: 'time' } };
}

/** The hosts a run reached, for a refusal. */
const describeHosts = (run: Run) => [...new Set([run.target.authUrl, run.target.accountsUrl].filter((url) => url !== ''))].join(' and ') || 'no host it names';

/** The sandbox's client of the run, and its workspace when this request may read that workspace's log. */
async function readableClient(event: RequestEvent, run: Run) {
	const clientId = linkParameter(run, 'client_id') ?? run.exchanges.map((e) => requestClientId(e.request)).find((id) => id !== undefined);
	if (!onSandboxHosts(run, config().sandbox) || clientId === undefined) return { clientId, workspace: null };
	const workspace = await clientWorkspace(clientId);
	return { clientId, workspace: workspace && (await mayReadWorkspaceLog(event, workspace)) ? workspace : null };
}

async function sandboxLog(event: RequestEvent, run: Run): Promise<Outcome> {
	if (!onSandboxHosts(run, config().sandbox))
		return refused(400, `This run reached ${describeHosts(run)}, not this sandbox's hosts (${config().sandbox.authUrl}, ${config().sandbox.accountsUrl}), so the sandbox has no log of it.`);
	const { clientId, workspace } = await readableClient(event, run);
	if (clientId === undefined) return refused(400, "This run names no client_id, so the sandbox's log cannot be searched for it.");
	if (!workspace)
		return refused(403, `You may not read the log of the sandbox workspace that holds client ${clientId}: only its members (and, for the default workspace, whoever administers the sandbox) may.`);
	return { ok: true, evidence: sandboxLogEvidence(workspace.recentLog(LOG_CAPACITY), clientId, run, LOG_CAPACITY) };
}

/**
 * An unanswered exchange of the run sent for its answer, with the sandbox client's secret put back when it is that
 * client's own token exchange with the sandbox (resend.ts says why not otherwise).
 */
async function sendFromRun(event: RequestEvent, run: Run, exchangeId: string): Promise<Outcome> {
	const held = run.exchanges.find((e) => e.id === exchangeId);
	if (!held) return refused(404, `This run has no exchange "${exchangeId}".`);
	if (held.response) return refused(400, 'This exchange already has its answer.');
	const { workspace, clientId } = await readableClient(event, run);
	const secret = workspace && clientId !== undefined ? workspace.getClient(clientId)?.client_secret : undefined;
	const sandbox = secret ? holdSecret(secret, config().sandbox.accountsUrl) : null;
	const holder = sandbox && clientId !== undefined ? { clientId, secret: sandbox.value, accountsOrigin: sandbox.origin } : undefined;
	const resend = requestToResend(held, holder);
	if (!resend.ok) return refused(400, resend.message);
	const exchange = await sendAgain(held, resend.request, sandbox ? [sandbox] : []);
	if (typeof exchange === 'string') return refused(400, exchange);
	return {
		ok: true,
		evidence: { source: 'sent', timed: true, record: { link: null, callback: null, exchanges: [exchange] }, redactions: [] },
		secrets: secret ? [secret] : []
	};
}

async function readEvidence(event: RequestEvent, run: Run): Promise<Outcome> {
	const kind = event.url.searchParams.get('kind');
	if (kind === 'har') {
		if (event.request.body === null) return refused(400, 'No HAR: send the file itself as the body.');
		const { readHar } = await import('./har-import-thread');
		const result = await readHar(chunksOf(event.request.body), { maxBytes: MAX_HAR_BYTES });
		if (!result.ok) return refused(result.tooLarge ? 413 : 400, result.message);
		const { sanitised } = result.run;
		return { ok: true, evidence: { source: 'har', timed: true, record: result.run, redactions: result.run.redactions, ...(sanitised ? { sanitised } : {}) } };
	}
	const bytes = event.request.body === null ? new Uint8Array() : await readBodyUpTo(event.request.body, DEFAULT_BODY_LIMIT);
	if (bytes === null) return { ok: false, status: 413, message: (await tooLarge(DEFAULT_BODY_LIMIT).json()).message };
	let body: unknown;
	try {
		body = jsonParse(new TextDecoder().decode(bytes));
	} catch {
		return refused(400, 'Send {"kind": "curl" | "http", "text": "…"}, {"kind": "sandbox-log"}, {"kind": "send", "exchangeId": "…"}, or a HAR file itself with ?kind=har.');
	}
	const parsed = EvidenceRequest.safeParse(body);
	if (!parsed.success) return refused(400, `No evidence added: ${parsed.error.issues[0]!.message}.`);
	const request = parsed.data;
	if (request.kind === 'sandbox-log') return sandboxLog(event, run);
	if (request.kind === 'send') return sendFromRun(event, run, request.exchangeId);
	return pasted(request.kind, request.text, request.send ?? false);
}

/**
 * POST /runs/[id]/evidence: the evidence joined to the run, the run redacted whole and stored again (same id).
 * Answers how many exchanges were added, how many the run already held, and how many of those got their answer.
 */
export async function addEvidence(event: RequestEvent & { params: { id: string } }): Promise<Response> {
	const { runs } = await services();
	const read = await readEvidence(event, ownedRun(runs, event.params.id, event.locals.sessionId).run);
	if (!read.ok) throw errorFor(read.status, read.message);
	// Reading the evidence may wait (a streamed HAR, a send): the run is read again, and joined and saved with no
	// await between, so nothing saved to it meanwhile (a walk's step, other evidence) is lost.
	const { run, owner } = ownedRun(runs, event.params.id, event.locals.sessionId);
	const joined = joinEvidence(run, read.evidence);
	// The store triages the run as redacted: the evidence may hold secrets the verdict here was worked out with.
	runs.save(retitleAfterJoin(run, joined.run), { clientSecrets: read.secrets ?? [] }, owner);
	const { shortfall } = read.evidence;
	return json({ added: joined.added.length, duplicates: joined.duplicates - joined.answered, answered: joined.answered, ...(shortfall ? { shortfall } : {}) });
}
