/**
 * What the flow engine reads: one attempt at the flow as recorded, whatever recorded it. A walk in the explorer, an
 * imported HAR or curl command, and the sandbox's live log all become a `FlowRecord`, and the engine (annotate-flow.ts,
 * flags.ts, diagnose-flow.ts) reasons over it alone. A saved run (support/run.ts) is a FlowRecord with a name.
 */
import { uriParts } from '$lib/http/encoding';
import { splitRawQuery } from '$lib/http/form';
import { classifyCallback, type CallbackResult } from './callback';
import type { RecordedExchange } from './exchange';

export interface FlowTarget {
	kind: 'sandbox' | 'custom';
	authUrl: string;
	accountsUrl: string;
}

export interface FlowCallback {
	url: string;
	receivedAt: string;
	sandboxOffsetMs?: number;
}

export interface FlowRecord {
	target: FlowTarget;
	/** The sandbox's clock when the flow ran, when the sandbox was the target and its clock was set. */
	sandboxClock: string | null;
	/** The authorisation link the flow started from. */
	link: string | null;
	/** The browser's arrival at the redirect URI that the flow went on from (its time as an exchange's: flow-time.ts). */
	callback: FlowCallback | null;
	exchanges: RecordedExchange[];
	/**
	 * The redirect's code was exchanged before this record began: a walk knows it of its own earlier run (a new client
	 * secret starts a new run with the same code), which the record's exchanges cannot show.
	 */
	codeExchangedBefore?: boolean;
	/**
	 * The record is the service's request log (the live view, the embedded sandbox): it holds what reached the
	 * service, never the browser's arrival at the app nor the app's answer to the user, unless those were added to it.
	 */
	serviceSideOnly?: boolean;
}

/** A parameter of the flow's authorisation link, decoded once, as the service reads it. */
export function linkParameter(record: Pick<FlowRecord, 'link'>, name: string): string | undefined {
	return record.link === null ? undefined : splitRawQuery(uriParts(record.link).query).find((p) => p.name === name)?.value;
}

/** The `redirect_uri` of the flow's authorisation link. */
export function linkRedirectUri(record: Pick<FlowRecord, 'link'>): string | undefined {
	return linkParameter(record, 'redirect_uri');
}

/** The record's redirect back, classified against the link's redirect URI (against itself when the link names none); null without one. */
export function callbackResult(record: Pick<FlowRecord, 'link' | 'callback'>): CallbackResult | null {
	return record.callback && classifyCallback(record.callback.url, { redirectUri: linkRedirectUri(record) ?? record.callback.url });
}
