/**
 * How a client reads the me.json answers of 2.4 that apps most often mishandle: the fix the engine gives when an
 * app failed on one, and the app check's for the check that produces it. A leaf: pages import it.
 */

/** Verifications keyed `group` instead of `supergroup` (the sample of 4.3). */
export const READ_EITHER_KEY = 'Accept either key: read each verification\'s `supergroup`, else its `group` (`element.supergroup ?? element.group`).';

/** An empty `verifications` list: a user with no active verification, a normal answer. */
export const READ_EMPTY_LIST = 'Read an empty `verifications` array as "not verified" and show a normal page, not an error.';
