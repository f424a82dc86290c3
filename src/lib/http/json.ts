/** Reading a body that may be JSON, without exceptions for the caller: most bodies searched are not JSON. */

/** Whether a body starts like a JSON object or array (what a JSON answer or request body is). */
export const looksLikeJson = (body: string) => /^\s*[{[]/.test(body);

/** The parsed JSON, or undefined when `text` is not JSON. */
export function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}
