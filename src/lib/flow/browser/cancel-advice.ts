/**
 * The cancel loop's cause and fix (an app that sends a cancelled user straight back to the authorisation page),
 * naming a client library only when the record shows that library: its requests' User-Agent or its own words.
 */
import { errorCause } from '$lib/protocol';
import type { RecordedExchange } from '../exchange';
import { requestHeader } from '../request-params';
import { LIBRARY_MESSAGES, wordsOfAnswer } from './browser-arrivals';

/** Why an app sends a cancelled user straight back to the authorisation page, most often, in any stack. */
const CANCEL_LOOP_GENERAL =
	'The usual cause: the callback route treats a redirect without `code` as "not signed in yet" and starts the sign-in again; the service\'s cancel carries neither `code` nor `error` (3).';
const CANCEL_LOOP_PASSPORT =
	'This is passport-oauth2 (the record shows it): it treats a redirect with neither `code` nor `error` as "start sign-in", and redirects to the authorisation page again; the service\'s cancel carries neither (3).';
const CANCEL_LOOP_FIX_GENERAL = `${errorCause('token-invalid-request', 'missing-code').fix} Show the user a page saying they cancelled, with a way to try again, and do not start a new sign-in by yourself: in the callback route, check for \`code\` before anything starts or completes the sign-in.`;

/** The client library the record shows the app uses, by its own words or its requests' User-Agent; null when none. */
export function libraryShown(exchanges: readonly RecordedExchange[]): 'passport-oauth2' | null {
	const passport = exchanges.some(
		(e) =>
			/^Node-oauth\b/i.test(requestHeader(e.request, 'user-agent') ?? '') ||
			LIBRARY_MESSAGES.some((m) => m.library === 'passport-oauth2' && m.pattern.test(wordsOfAnswer(e.response)))
	);
	return passport ? 'passport-oauth2' : null;
}

/** The cancel loop's likely cause and fix, naming passport-oauth2 only when the record shows it. */
export function cancelLoopAdvice(exchanges: readonly RecordedExchange[]): { cause: string; fix: string } {
	return libraryShown(exchanges) === 'passport-oauth2'
		? { cause: CANCEL_LOOP_PASSPORT, fix: `${CANCEL_LOOP_FIX_GENERAL} With passport-oauth2, check for \`code\` in the callback route before calling \`passport.authenticate\`.` }
		: { cause: CANCEL_LOOP_GENERAL, fix: CANCEL_LOOP_FIX_GENERAL };
}
