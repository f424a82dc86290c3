/** HTTP header lists (`{name, value}` in order, as recorded): header names are case-insensitive (RFC 9110 5.1). */

interface NamedValue {
	readonly name: string;
	readonly value: string;
}

/** The value of the first header named `name`, in any case; undefined when there is none. */
export function headerValue(headers: readonly NamedValue[], name: string): string | undefined {
	const wanted = name.toLowerCase();
	return headers.find((h) => h.name.toLowerCase() === wanted)?.value;
}

export function hasHeader(headers: readonly NamedValue[], name: string): boolean {
	return headerValue(headers, name) !== undefined;
}
