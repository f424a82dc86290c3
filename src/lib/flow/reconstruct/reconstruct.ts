/**
 * Flows from recorded requests: which requests belong to one sign-in. A flow is a timeline: the link, the sign-in
 * pages (login, verification, consent or cancel), the redirect back (with a code, or without: a cancel), the
 * exchanges of the code and the me.json calls made with the token they issued.
 *
 * The requests are joined by what they carry, never by order alone: a page by the sign-in flow it belongs to, an
 * exchange by the code the redirect delivered, a me.json call by the token an exchange issued (a refresh by the
 * refresh token). The sandbox's live log hides those values and gives keyed digests of them instead (`keys`); an
 * import or a walk that has the values (or values masked alike) is joined on the values themselves. A request that
 * joins nothing starts a flow of its own (an exchange of a code whose redirect is not in the window).
 *
 * A new link from a client right after one of its flows ended in a cancel starts a separate flow, marked as
 * following the cancel: the cancel loop of an app that restarts the sign-in whenever the redirect has no code.
 */
import { correlationValues } from '../../http/correlation';
import { MASK } from '../../http/exchange';
import { uriParts } from '../../http/encoding';
import { splitRawQuery } from '../../http/form';
import type { RecordedExchange } from '../exchange';
import { byStartTime } from '../flow-time';
import { ENDPOINT_PATHS } from '$lib/protocol/endpoints';
import type { FlowCallback } from '../record';

/** What joins a request to its flow (see `CorrelationValues`): values, or digests of them. All optional. */
export interface FlowKeys {
	clientId?: string;
	authFlow?: string;
	code?: string;
	presented?: string;
	issued?: readonly string[];
}

/** One recorded request of a flow. Without `keys`, they are read from the exchange (masked values join nothing). */
export interface FlowEvidence {
	exchange: RecordedExchange;
	keys?: FlowKeys;
}

export interface ReconstructedFlow {
	/** The id of its first exchange: stable while that exchange is in the window. */
	id: string;
	clientId: string | null;
	/** The authorisation link as requested (absolute URL), when the flow began with one. */
	link: string | null;
	/** The redirect back to the client: its address and when the sign-in answered with it. */
	callback: FlowCallback | null;
	/** Every request of the flow, in time order: the link, the pages, the exchanges, me.json. */
	exchanges: RecordedExchange[];
	/** The flow that ended in a cancel just before this one began: the cancel loop. */
	followsCancel: { flowId: string; secondsAfter: number } | null;
	startedAt: string;
	updatedAt: string;
}

/** How soon after a cancel a new link of the same client counts as the app starting over by itself. */
export const CANCEL_LOOP_SECONDS = 10;

const usable = (value: string | undefined) => (value !== undefined && value !== '' && !value.includes(MASK) ? value : undefined);

/** The keys an exchange's own values give: what an import or a walk joins on. */
export function literalKeys(exchange: RecordedExchange): FlowKeys {
	const values = correlationValues(exchange.request, exchange.response);
	return {
		clientId: values.clientId,
		authFlow: usable(values.authFlow),
		code: usable(values.code),
		presented: usable(values.presented),
		issued: values.issued.filter((t) => usable(t) !== undefined)
	};
}

const seconds = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;

function redirectOf(exchange: RecordedExchange): string | undefined {
	const location = exchange.response?.headers.find((h) => h.name.toLowerCase() === 'location')?.value;
	return location !== undefined && !ENDPOINT_PATHS.signInPage.test(uriParts(location).path) ? location : undefined;
}

/** A redirect without `code` and without `error`: the user cancelled. */
function isCancel(callbackUrl: string): boolean {
	const names = splitRawQuery(uriParts(callbackUrl).query).map((p) => p.name);
	return !names.includes('code') && !names.includes('error');
}


/** `flow` unless it is another client's. */
const ofClient = (flow: ReconstructedFlow | undefined, clientId: string | undefined) =>
	flow && (clientId === undefined || flow.clientId === null || flow.clientId === clientId) ? flow : undefined;

/**
 * Flows built one request at a time, each request no earlier than those before it: the live view keeps one per
 * client and adds what its log receives, instead of rebuilding its whole window at each arrival.
 */
export class FlowReconstruction {
	/** Oldest first. */
	readonly flows: ReconstructedFlow[] = [];
	private readonly byAuthFlow = new Map<string, ReconstructedFlow>();
	private readonly byCode = new Map<string, ReconstructedFlow>();
	private readonly byToken = new Map<string, ReconstructedFlow>();
	/** Each client's newest flow, which an exchange sent without a code belongs to. */
	private readonly latest = new Map<string, ReconstructedFlow>();
	/** The codes the redirects delivered. */
	private readonly delivered = new Set<string>();
	/** Each client's latest cancel not yet followed by a link. */
	private readonly cancels = new Map<string, { flow: ReconstructedFlow; at: string }>();

	private start(exchange: RecordedExchange, clientId: string | undefined): ReconstructedFlow {
		const flow: ReconstructedFlow = {
			id: exchange.id,
			clientId: clientId ?? null,
			link: null,
			callback: null,
			exchanges: [],
			followsCancel: null,
			startedAt: exchange.startedAt,
			updatedAt: exchange.startedAt
		};
		this.flows.push(flow);
		return flow;
	}

	/** The client's newest flow when it ended in a cancel that nothing followed, under CANCEL_LOOP_SECONDS before `at`. */
	private cancelledJustBefore(clientId: string | undefined, at: string): ReconstructedFlow | undefined {
		const cancel = clientId === undefined ? undefined : this.cancels.get(clientId);
		if (!cancel || this.latest.get(clientId!) !== cancel.flow || seconds(cancel.at, at) > CANCEL_LOOP_SECONDS) return undefined;
		return cancel.flow;
	}

	/** The flow the request joined or started; null when it joins none (a sign-in page whose link is not here). */
	add({ exchange, keys: given }: FlowEvidence): ReconstructedFlow | null {
		const keys = given ?? literalKeys(exchange);
		let flow: ReconstructedFlow | undefined;
		if (exchange.step === 'link') {
			const cancel = keys.clientId === undefined ? undefined : this.cancels.get(keys.clientId);
			flow = this.start(exchange, keys.clientId);
			flow.link = exchange.request.url;
			if (cancel) {
				this.cancels.delete(keys.clientId!);
				const after = seconds(cancel.at, exchange.startedAt);
				if (after <= CANCEL_LOOP_SECONDS) flow.followsCancel = { flowId: cancel.flow.id, secondsAfter: Math.max(0, Math.round(after)) };
			}
		} else if (exchange.step === 'sign-in') {
			flow = keys.authFlow === undefined ? undefined : this.byAuthFlow.get(keys.authFlow);
			// Without a flow key (an import of another service's pages), a page belongs to the newest sign-in still open.
			flow ??= keys.authFlow === undefined ? this.flows.findLast((f) => f.link !== null && f.callback === null) : undefined;
			if (!flow) return null;
			const redirect = redirectOf(exchange);
			if (redirect !== undefined && flow.callback === null) {
				flow.callback = { url: redirect, receivedAt: exchange.startedAt, ...(exchange.sandboxOffsetMs === undefined ? {} : { sandboxOffsetMs: exchange.sandboxOffsetMs }) };
				if (isCancel(redirect) && flow.clientId !== null) this.cancels.set(flow.clientId, { flow, at: exchange.startedAt });
			}
		} else if (exchange.step === 'token') {
			// A code no redirect in the window delivered, right after the client's sign-in ended in a cancel: exchanged after
			// it. Such a code (`null` as text) joins no other client's flow that sent the same.
			if (keys.code !== undefined)
				flow = this.delivered.has(keys.code)
					? this.byCode.get(keys.code)
					: (this.cancelledJustBefore(keys.clientId, exchange.startedAt) ?? ofClient(this.byCode.get(keys.code), keys.clientId));
			else if (keys.presented !== undefined) flow = this.byToken.get(keys.presented);
			// No code at all (an exchange after a cancel): the client's newest flow.
			else if (keys.clientId !== undefined) flow = this.latest.get(keys.clientId);
			flow ??= this.start(exchange, keys.clientId);
		} else {
			flow = keys.presented === undefined ? undefined : this.byToken.get(keys.presented);
			flow ??= this.start(exchange, keys.clientId);
		}

		flow.exchanges.push(exchange);
		flow.updatedAt = exchange.startedAt;
		if (flow.clientId === null && keys.clientId !== undefined) flow.clientId = keys.clientId;
		if (flow.clientId !== null) this.latest.set(flow.clientId, flow);
		if (keys.authFlow !== undefined) this.byAuthFlow.set(keys.authFlow, flow);
		if (keys.code !== undefined) this.byCode.set(keys.code, flow);
		if (keys.code !== undefined && exchange.step === 'sign-in') this.delivered.add(keys.code);
		for (const token of keys.issued ?? []) this.byToken.set(token, flow);
		return flow;
	}
}

/** The flows of `evidence` (any order; sorted by start time here), to which later requests may be added. */
export function reconstruction(evidence: readonly FlowEvidence[]): FlowReconstruction {
	const ordered = [...evidence].sort((a, b) => byStartTime(a.exchange, b.exchange));
	const built = new FlowReconstruction();
	for (const one of ordered) built.add(one);
	return built;
}

/** The flows of `evidence` (any order), oldest first. */
export function reconstructFlows(evidence: readonly FlowEvidence[]): ReconstructedFlow[] {
	return reconstruction(evidence).flows;
}
