/**
 * Live flows (/live): the sandbox's clients of the session's workspace, and each client's flows as they happen,
 * rebuilt from the workspace's request log by the flow engine (reconstruct.ts) and diagnosed as a saved run is
 * (annotations, cross-request flags) plus the flow's own flags (flow-flags.ts).
 *
 * Access follows the /sandbox panel's rules (sandbox-admin.ts): the session's own workspace, else the default one
 * for whoever administers the sandbox; never the default workspace of a public sandbox (its log is everyone's).
 * A client of another workspace is not found. Nothing shown carries a secret or a token: the log masks codes and
 * tokens before it stores them, and each flow is redacted as a saved run is (a secret's value found anywhere).
 *
 * The event streams of one client share one feed, which subscribes to the workspace's log (no polling): entries
 * are built after they arrive, at most every PUSH_INTERVAL_MS and within a small share of the process's time
 * (LIVE_SHARE) however many tabs watch, added to the feed's flows (not rebuilt from the whole window), and only the
 * flows that changed are diagnosed and sent.
 */
import type { RequestEvent } from '@sveltejs/kit';
import { reconstructFlows, reconstruction, type FlowEvidence, type ReconstructedFlow } from '$lib/flow/reconstruct/reconstruct';
import { evidenceOf } from '$lib/flow/reconstruct/log-evidence';
import { LOG_CAPACITY, type LiveLogEntry, type LoggedExchange } from '$lib/sandbox/log';
import type { SandboxClient, SandboxWorkspace } from '$lib/sandbox/store';
import { assembleRun, exchangeHeadline, liveFlowRun, type SandboxHosts } from '$lib/features/runs/pure';
import { OFF_MESSAGE, panelWorkspace, sandboxAdminAccess } from '../sandbox-admin';
import { runSaver } from '../runs';
import { services } from '../../platform/services';
import { presentRun } from '../runs';
import { LIVE_FLOWS_SHOWN } from '$lib/view/live';
import { sseComment, sseEvent } from '../../platform/streams/sse';
import { forbidden, notFound, sandboxOff, tooManyRequests } from '../../platform/errors';

/** What the live pages list of a client. */
export interface LiveClient {
	clientId: string;
	name: string;
}

/** One flow as the live page shows it: the redacted run of its requests, annotated and flagged. */
export type LiveFlow = ReturnType<typeof presentRun> & {
	id: string;
	followsCancel: ReconstructedFlow['followsCancel'];
	updatedAt: string;
	outcome: string;
};

const PUSH_INTERVAL_MS = 300;
/**
 * The share of the process's time one client's live views may take, so that it costs the sandbox's hosts (in this process)
 * nothing measurable: under load each push builds up to LOG_CAPACITY entries, and the next waits accordingly. What a
 * push takes undercounts what it costs (the garbage it leaves is collected later, on the requests' time): at 3% the
 * bench measured me.json at 83% of its throughput without a view, at 1% at 98%.
 */
const LIVE_SHARE = 0.01;
/** Arrivals per push below which the feed does not rest after it (see `run`): a person's pace, not load. */
const LIGHT_TRAFFIC = 20;
/** Entries built between two yields to the hosts' requests. */
const BUILD_SLICE = 25;
/** Live views open at once on one workspace (each keeps a window of its log); more are refused with a 429. */
export const STREAMS_PER_WORKSPACE = 10;
const openStreams = new Map<string, number>();
const HEARTBEAT_MS = 15_000;
/** Events queued for a browser that stopped reading; beyond this the stream is dropped, not grown. */
const MAX_QUEUED_EVENTS = 64;

/**
 * Whether the session may still watch the client of `workspace`: it may have left the workspace, or the workspace
 * or the client may be gone, since its stream opened.
 */
export async function stillWatchable(event: RequestEvent, workspace: SandboxWorkspace, clientId: string): Promise<boolean> {
	try {
		const now = await liveWorkspace(event);
		return now.id === workspace.id && now.getClient(clientId) !== undefined;
	} catch {
		return false;
	}
}

/** The workspace the session may watch, or the error page saying why not. */
export async function liveWorkspace(event: RequestEvent): Promise<SandboxWorkspace> {
	const access = await sandboxAdminAccess(event);
	if (access === 'off') throw notFound(OFF_MESSAGE);
	if (access !== 'allowed')
		throw forbidden(access === 'token-needed' ? 'Live flows need sandbox administration: give the admin token on the /sandbox page first.' : 'Live flows are open to this machine only (no SANDBOX_ADMIN_TOKEN is set).');
	const shown = await panelWorkspace(event);
	if (!shown) throw sandboxOff('there are no live flows.');
	if (shown.readOnly) throw forbidden('On a public sandbox the default workspace\'s requests are everyone\'s: use your own workspace (on the /sandbox page) to watch your flows.');
	return shown.workspace;
}

export function liveClients(workspace: SandboxWorkspace): LiveClient[] {
	return workspace.listClients().map((c) => ({ clientId: c.client_id, name: c.name }));
}

/** The workspace's client, or a 404 (a client of another workspace is not found either). */
export function liveClient(workspace: SandboxWorkspace, clientId: string): SandboxClient {
	const client = workspace.getClient(clientId);
	if (!client) throw notFound(`No client "${clientId.slice(0, 100)}" in your sandbox workspace. Its clients are listed at /live.`);
	return client;
}

/** How a flow stands, for its heading and a saved run's title. */
function outcomeOf(flow: ReconstructedFlow, presented: ReturnType<typeof presentRun>): string {
	const i = flow.exchanges.findLastIndex((e) => e.step === 'token' || e.step === 'me');
	if (i !== -1) return exchangeHeadline(flow.exchanges[i]!, presented.annotations.exchanges[i] ?? undefined);
	if (presented.callback) return presented.callback.result.kind === 'cancel' ? 'cancelled' : presented.callback.result.kind === 'code' ? 'code received' : 'unexpected redirect';
	return 'signing in';
}

/**
 * A flow diagnosed as the live page shows it: redacted as a saved run, annotated, its cross-request flags and its
 * own. Pure given the sandbox's hosts, so the corpus's live channel runs the same; the app check builds its run alike.
 */
export function presentFlow(flow: ReconstructedFlow, client: Pick<SandboxClient, 'client_id' | 'client_secret'>, hosts: SandboxHosts): LiveFlow {
	const presented = presentRun(liveFlowRun(flow, client.client_id, [client.client_secret], hosts), { followsCancel: flow.followsCancel });
	return { ...presented, id: flow.id, followsCancel: flow.followsCancel, updatedAt: flow.updatedAt, outcome: outcomeOf(flow, presented) };
}

/** The sandbox's two hosts, as this explorer publishes them. */
async function sandboxHosts(): Promise<SandboxHosts> {
	const { sandbox } = await services();
	return { authUrl: sandbox?.authUrl ?? '', accountsUrl: sandbox?.accountsUrl ?? '' };
}

async function present(flow: ReconstructedFlow, client: SandboxClient): Promise<LiveFlow> {
	return presentFlow(flow, client, await sandboxHosts());
}

/** The entries of the workspace's log, oldest first, as flow evidence. */
function evidenceIn(entries: readonly LoggedExchange[]): FlowEvidence[] {
	return entries.flatMap((e) => evidenceOf(e) ?? []);
}

/** The workspace's log now, oldest first. */
function loggedNow(workspace: SandboxWorkspace): LoggedExchange[] {
	return workspace
		.recentLog(LOG_CAPACITY)
		.map(({ entry }) => entry)
		.reverse();
}

/** The client's flows in `entries`, oldest first. */
const flowsOf = (entries: readonly LoggedExchange[], clientId: string) => reconstructFlows(evidenceIn(entries)).filter((f) => f.clientId === clientId);
/** The newest LIVE_FLOWS_SHOWN of them. */
const shownFlowsOf = (entries: readonly LoggedExchange[], clientId: string) => flowsOf(entries, clientId).slice(-LIVE_FLOWS_SHOWN);

/** The client's newest flows in the log now, newest first, diagnosed. */
export async function liveFlows(workspace: SandboxWorkspace, client: SandboxClient): Promise<LiveFlow[]> {
	const flows = shownFlowsOf(loggedNow(workspace), client.client_id);
	return Promise.all(flows.reverse().map((f) => present(f, client)));
}

/** Saves the flow as a run of the session's (redacted as every run); answers its id, or a 404 when the flow is gone. */
export async function saveLiveFlow(workspace: SandboxWorkspace, client: SandboxClient, flowId: string, sessionId: string): Promise<string> {
	const flow = flowsOf(loggedNow(workspace), client.client_id).find((f) => f.id === flowId);
	if (!flow) throw notFound('That flow is no longer in the sandbox\'s request log (it keeps the newest 500 requests).');
	const { runs } = await services();
	// Redacted already; the store redacts it again with the same secrets, as its last guard.
	const run = liveFlowRun(flow, client.client_id, [client.client_secret], await sandboxHosts());
	const presented = presentRun(run);
	const { owner, visitor } = await runSaver(sessionId);
	const saved = runs.save({ ...run, id: globalThis.crypto.randomUUID(), title: `Live flow, ${client.client_id}: ${outcomeOf(flow, presented)}` }, { clientSecrets: [client.client_secret] }, owner, { visitor });
	return assembleRun(saved).id;
}

/** What a flow's update depends on: its requests and whether it followed a cancel. */
const signature = (flow: ReconstructedFlow) => `${flow.exchanges.map((e) => e.id).join(',')}|${flow.followsCancel?.flowId ?? ''}`;

/** One flow's current `flow` event, and what it was built from. */
interface FlowEvent {
	id: string;
	key: string;
	text: string;
}

/**
 * One client's flows rebuilt from its workspace's log as it grows, shared by every stream watching that client:
 * however many tabs are open, each arrival is built and each changed flow diagnosed once, within LIVE_SHARE.
 */
interface Feed {
	/** The shown flows' current events, oldest first. */
	readonly current: Map<string, FlowEvent>;
	/** Told of the flows that changed after each push. */
	readonly watchers: Set<(changed: readonly FlowEvent[]) => void>;
	/** Lets go of the log: its last stream has gone. */
	close(): void;
}
const feeds = new Map<string, Feed>();

/** The client's feed, started when no stream watches it yet; it lets go of the log when its last watcher leaves. */
function feedOf(workspace: SandboxWorkspace, client: SandboxClient): Feed {
	const id = `${workspace.id}\u0000${client.client_id}`;
	const existing = feeds.get(id);
	if (existing) return existing;
	const window = loggedNow(workspace);
	let flows = reconstruction(evidenceIn(window));
	const arrived: LiveLogEntry[] = [];
	let timer: ReturnType<typeof setTimeout> | undefined;
	let busy = false;
	let live = true;
	/** When the next push may start: after resting 1 / LIVE_SHARE times what the last one took. */
	let restUntil = 0;
	const feed: Feed = {
		current: new Map(),
		watchers: new Set(),
		close: () => {
			live = false;
			unsubscribe();
			clearTimeout(timer);
			feeds.delete(id);
		}
	};
	/**
	 * Builds what arrived, adds it to the flows and diagnoses those that changed, yielding to requests as it goes.
	 * Answers the time it took and how many arrivals it built.
	 */
	async function push(): Promise<{ spent: number; built: number }> {
		let spent = 0;
		let mark = performance.now();
		const pause = async () => {
			spent += performance.now() - mark;
			await new Promise<void>((resolve) => setImmediate(resolve));
			mark = performance.now();
		};
		// Only the newest LOG_CAPACITY can be in the window: older arrivals are never built.
		const batch = arrived.splice(0).slice(-LOG_CAPACITY);
		for (let i = 0; i < batch.length; i++) {
			const logged = batch[i]!.entry.build();
			window.push(logged);
			const evidence = evidenceOf(logged);
			if (evidence) flows.add(evidence);
			if (i % BUILD_SLICE === BUILD_SLICE - 1) await pause();
		}
		// The window grows to twice the log's size, then drops its older half and is rebuilt once: each arrival costs
		// its own addition, and a rebuild every LOG_CAPACITY arrivals, however long the flows it joins.
		if (window.length >= 2 * LOG_CAPACITY) {
			window.splice(0, window.length - LOG_CAPACITY);
			flows = reconstruction(evidenceIn(window));
			await pause();
		}
		const shown = flows.flows.filter((f) => f.clientId === client.client_id).slice(-LIVE_FLOWS_SHOWN);
		const ids = new Set(shown.map((f) => f.id));
		for (const flowId of feed.current.keys()) if (!ids.has(flowId)) feed.current.delete(flowId);
		const changed: FlowEvent[] = [];
		for (const flow of shown) {
			const key = signature(flow);
			if (feed.current.get(flow.id)?.key === key || !live) continue;
			const event = { id: flow.id, key, text: sseEvent('flow', await present(flow, client)) };
			feed.current.set(flow.id, event);
			changed.push(event);
			await pause();
		}
		// Every push, changes or not: each stream checks its session's access then.
		for (const watcher of feed.watchers) watcher(changed);
		return { spent: spent + (performance.now() - mark), built: batch.length };
	}
	/**
	 * `arrivals`: whether this push builds what arrived. Only a push of traffic (more than LIGHT_TRAFFIC arrivals) sets a
	 * rest before the next: the feed's first push shows the window once, for the page being opened, and a person's
	 * clicks arrive a few at a time; resting 1 / LIVE_SHARE times their cost (inflated on a busy machine) would hold
	 * the next request back by seconds.
	 */
	async function run(arrivals = true): Promise<void> {
		timer = undefined;
		busy = true;
		try {
			const { spent, built } = await push();
			if (arrivals && built > LIGHT_TRAFFIC) restUntil = Date.now() + spent / LIVE_SHARE;
		} catch (cause) {
			console.error('live flows:', cause);
		} finally {
			busy = false;
			if (arrived.length > 0) wake();
		}
	}
	function wake(): void {
		if (timer === undefined && !busy && live) timer = setTimeout(run, Math.max(PUSH_INTERVAL_MS, restUntil - Date.now()));
	}
	const unsubscribe = workspace.subscribeLog((entry) => {
		arrived.push(entry);
		if (arrived.length > 2 * LOG_CAPACITY) arrived.splice(0, arrived.length - LOG_CAPACITY);
		wake();
	});
	feeds.set(id, feed);
	void run(false);
	return feed;
}

/**
 * `text/event-stream` of the client's flows: each current flow once (`flow` events), then each flow again when it
 * changes; a comment every HEARTBEAT_MS keeps proxies from closing it. Before each push and heartbeat it asks
 * `allowed` whether the session may still watch, and ends when it may not. Ends when the browser goes away, and
 * when it stops reading (beyond MAX_QUEUED_EVENTS).
 */
export function liveEventStream(workspace: SandboxWorkspace, client: SandboxClient, signal: AbortSignal, allowed: () => Promise<boolean>): Response {
	const streams = openStreams.get(workspace.id) ?? 0;
	if (streams >= STREAMS_PER_WORKSPACE) throw tooManyRequests(`This workspace has ${STREAMS_PER_WORKSPACE} live views open already: close one (a tab on /live/…) and try again.`);
	const encoder = new TextEncoder();
	let stop = () => {};
	let counted = false;
	const release = () => {
		if (!counted) return;
		counted = false;
		const left = (openStreams.get(workspace.id) ?? 1) - 1;
		if (left > 0) openStreams.set(workspace.id, left);
		else openStreams.delete(workspace.id);
	};
	let stream: ReadableStream<Uint8Array>;
	try {
		stream = new ReadableStream<Uint8Array>({
			start(controller) {
				openStreams.set(workspace.id, (openStreams.get(workspace.id) ?? 0) + 1);
				counted = true;
				let open = true;
				const send = (text: string) => {
					if (!open) return;
					// A browser that stopped reading: drop it rather than queue without bound.
					if ((controller.desiredSize ?? 0) < -MAX_QUEUED_EVENTS) return end(new Error('the browser stopped reading'));
					controller.enqueue(encoder.encode(text));
				};
				/** Sends what changed, once the session is found still allowed to watch. */
				const forward = (changed: readonly FlowEvent[]) => {
					void allowed().then(
						(yes) => {
							if (!yes) return end();
							for (const event of changed) send(event.text);
						},
						() => end()
					);
				};
				const feed = feedOf(workspace, client);
				feed.watchers.add(forward);
				const heartbeat = setInterval(() => {
					void allowed().then((yes) => (yes ? send(sseComment('keep-alive')) : end()), () => end());
				}, HEARTBEAT_MS);
				/** Ends the stream: closed (what was sent stays readable), or failed, dropping what is queued. */
				function end(failure?: Error): void {
					if (!open) return;
					open = false;
					release();
					feed.watchers.delete(forward);
					if (feed.watchers.size === 0) feed.close();
					clearInterval(heartbeat);
					try {
						if (failure) controller.error(failure);
						else controller.close();
					} catch {
						// already closed by the runtime
					}
				}
				stop = () => end();
				signal.addEventListener('abort', stop, { once: true });
				send(sseComment('live flows'));
				// The flows the feed already has (a stream joining one others watch); a new feed sends them at its first push.
				forward([...feed.current.values()]);
			},
			cancel() {
				stop();
			}
		});
	} catch (cause) {
		release();
		throw cause;
	}
	return new Response(stream, {
		headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' }
	});
}
