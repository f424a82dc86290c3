/**
 * A record of the service's side alone (the sandbox's log, as the live view reads it): what reached the service,
 * never the browser's arrival at the app nor what the app answered the user. Its success or cancel is the service's
 * side's, so the verdict says what it did not observe and how to add it, never "nothing to fix" for the whole flow.
 */
import { arrivals } from './browser-arrivals';
import type { FlowRecord } from '../record';

/** How to add the app's side to a record of the service's side. */
export const ADD_PAGE = "To see how your app answered the user, run the app check, or save this flow and add the browser's HAR.";

/** The record is the service's log with no arrival at the app added to it: the app's page is not in it. */
export const pageUnseen = (flow: FlowRecord) => flow.serviceSideOnly === true && arrivals(flow).length === 0;
