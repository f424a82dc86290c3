/**
 * What an annotation is (the shape every step's diagnosis takes, read by the UI and the support toolkit), and the
 * small readers the diagnoses share: a body as JSON, a zod failure as problems, two redirect URIs part by part.
 */
import type { ErrorRowId } from '$lib/protocol';
import { uriParts } from '../../http/encoding';
import { readJson } from '../../http/json';
import type { VerificationDescription } from './verification';

/** `unsent`: a request recorded but never sent (a pasted curl command): nothing answered it, and nothing failed. */
export type Outcome = 'success' | 'error' | 'cancel' | 'transport' | 'unsent';
export type Target = 'sandbox' | 'custom';

export interface Candidate {
	rowId: ErrorRowId;
	causeId: string;
	likelihood: 'likely' | 'possible';
	/** Why this cause is (or may be) the one, from what the explorer knows. */
	why: string;
	/** The table's fix for this cause. */
	fix: string;
}

export interface AnnotatedField {
	name: string;
	value: string;
	explanation: string;
}

export interface UriDiff {
	part: 'scheme' | 'authority' | 'path' | 'query';
	a: string;
	b: string;
}

export interface Annotation {
	outcome: Outcome;
	title: string;
	summary: string;
	rowId?: ErrorRowId;
	causeId?: string;
	candidates: Candidate[];
	fix?: string;
	fields?: AnnotatedField[];
	problems?: string[];
	/** The sandbox's documented choice, when the behaviour is not described by the interface. */
	notDescribed?: string;
	/** For a `redirect_uri` mismatch: the link's redirect URI (a) against the one sent (b), part by part. */
	redirectUriDiff?: UriDiff[];
	/** me.json: which key the verifications used (the interface names both, see 2.4). */
	verificationKey?: 'supergroup' | 'group';
	/** me.json: each verification rendered for a person. */
	verifications?: VerificationDescription[];
	/** me.json, when its body matches 2.4: the account, and every key its verifications used. */
	account?: { sbidNumber: string; verificationKeys: ('supergroup' | 'group')[] };
}

/** The parts of two redirect URIs that differ, as written. The query part includes any fragment. */
export function redirectUriDiff(a: string, b: string): UriDiff[] {
	const split = (uri: string) => {
		const p = uriParts(uri);
		const query = `${uri.includes('?') ? `?${p.query}` : ''}${uri.includes('#') ? `#${p.fragment}` : ''}`;
		return { scheme: p.scheme, authority: p.authority, path: p.path, query };
	};
	const pa = split(a);
	const pb = split(b);
	return (['scheme', 'authority', 'path', 'query'] as const)
		.filter((part) => pa[part] !== pb[part])
		.map((part) => ({ part, a: pa[part], b: pb[part] }));
}

/** A string field of an answer's JSON body (`error`, `error_description` of 7.2), if it has one. */
export function jsonString(body: string, field: string): string | undefined {
	const json = readJson(body);
	const value = json.ok && typeof json.value === 'object' && json.value !== null ? (json.value as Record<string, unknown>)[field] : undefined;
	return typeof value === 'string' ? value : undefined;
}

/** The `error` of an answer's JSON body (the token endpoint's errors of 7.2), if it has one. */
export const jsonError = (body: string) => jsonString(body, 'error');


/** A duration for a person: hours and minutes, or seconds when under a minute. */
/**
 * How long ago a code that arrived `ageSeconds` ago expired, in words that do not contradict its age when both round
 * alike ("arrived 2 h ago; valid for 2 h"): "it expired 5 min ago (a code is valid for 2 h)".
 */
export function expiredAgo(ageSeconds: number, ttlSeconds: number): string {
	return `it expired ${formatDuration(ageSeconds - ttlSeconds)} ago (a code is valid for ${formatDuration(ttlSeconds)})`;
}

export function formatDuration(seconds: number): string {
	const h = Math.floor(seconds / 3600);
	const m = Math.floor((seconds % 3600) / 60);
	if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
	return m > 0 ? `${m} min` : `${Math.max(0, Math.round(seconds))} s`;
}
