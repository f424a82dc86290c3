/** Small wordings of ExchangeView: timing, masked values, transport failures, table rows. */
import type { MaskedValue } from '$lib/flow/exchange';
import type { TransportFailure } from '$lib/http/exchange';
import { allErrorRows, type ErrorCause, type ErrorRow } from '$lib/protocol';

/** "35 ms" below a second, "1.2 s" above. */
export function durationText(ms: number): string {
	return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** "12:01:02 UTC": the same on the server and in every browser, so hydration never disagrees. */
export function utcClockTime(iso: string): string {
	const date = new Date(iso);
	return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(11, 19)} UTC`;
}

export type MaskedKind = MaskedValue['kind'];

const MASKED_WORDS: Record<MaskedKind, string> = {
	client_secret: 'client secret',
	access_token: 'access token',
	refresh_token: 'refresh token',
	code: 'grant code',
	sandbox_key: 'sandbox workspace key or admin token'
};

export interface MaskedNote {
	kind: MaskedKind;
	word: string;
	/** Every place the value was hidden, e.g. "query parameter client_secret". */
	places: string[];
	hint: string;
	/** Only tokens may be revealed; the client secret never reaches the browser at all. */
	revealable: boolean;
}

/** One note per kind of masked value, in the order they were first masked. */
export function maskedNotes(masked: MaskedValue[]): MaskedNote[] {
	const notes: MaskedNote[] = [];
	for (const m of masked) {
		const note = notes.find((n) => n.kind === m.kind);
		if (note) {
			if (!note.places.includes(m.where)) note.places.push(m.where);
			continue;
		}
		notes.push({
			kind: m.kind,
			word: MASKED_WORDS[m.kind],
			places: [m.where],
			hint: m.hint,
			revealable: m.kind === 'access_token' || m.kind === 'refresh_token'
		});
	}
	return notes;
}

export function failureHeading(failure: TransportFailure): string {
	switch (failure.kind) {
		case 'refused':
			return 'Refused before sending: the target is not allowed';
		case 'unreachable':
			return 'The target could not be reached';
		case 'timeout':
			return `No answer within ${durationText(failure.timeoutMs)}`;
		case 'too-large':
			return 'The response was too large to record';
	}
}

/** "7.2 · 400 invalid_grant", "7.3 · 403", "7.1 · The redirect URI included is not valid." */
export function rowLabel(row: ErrorRow): string {
	switch (row.table) {
		case '7.1':
			return `7.1 · ${row.message}`;
		case '7.2':
			return `7.2 · ${row.status} ${row.error}`;
		case '7.3':
			return `7.3 · ${row.status}`;
	}
}

export function findRow(rowId: string | undefined): ErrorRow | undefined {
	return rowId === undefined ? undefined : allErrorRows().find((r) => r.id === rowId);
}

export function findCause(row: ErrorRow | undefined, causeId: string | undefined): ErrorCause | undefined {
	return row?.causes.find((c) => c.id === causeId);
}

/** Anchor of a row, or of one of its causes, on the reference page. */
export function referenceHref(rowId: string, causeId?: string): string {
	return `/reference#${causeId ? `${rowId}-${causeId}` : rowId}`;
}
