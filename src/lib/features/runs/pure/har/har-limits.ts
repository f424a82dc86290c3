/**
 * How large a HAR the import reads, and the words for refusing a larger one: shared by the server and the runs
 * page (which checks a file's size before uploading it), so this module imports nothing.
 */

/** The largest HAR an import reads: browsers save the whole page's traffic, with content, and cannot save less. */
export const MAX_HAR_BYTES = 250 * 1024 * 1024;

/** A size for a person: "312.4 MB", "250 MB", "12 KB". */
export function formatBytes(bytes: number): string {
	return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** Why a HAR is refused for its size, and what to do: a browser cannot save part of its traffic, only less of it. */
export function harTooLargeMessage(maxBytes: number, size?: number): string {
	const what = size === undefined ? `more than ${formatBytes(maxBytes)}` : formatBytes(size);
	return `The file is ${what}; at most ${formatBytes(maxBytes)} can be imported. Record a shorter HAR: in DevTools, open the Network panel, clear it, tick "Preserve log", sign in once, then save the HAR.`;
}
