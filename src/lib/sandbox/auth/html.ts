/**
 * A tagged template for server-rendered HTML that escapes every interpolated value. Only `SafeHtml` (made by `html`
 * itself) passes through unescaped, so markup can be composed while any string — a client name, a message, a URL —
 * is always text.
 */

export class SafeHtml {
	constructor(readonly value: string) {}
	toString(): string {
		return this.value;
	}
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&#39;',
	'`': '&#96;'
};

/** Escapes text for use in element content and in quoted attribute values. */
export function escapeHtml(text: string): string {
	return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c] ?? c);
}

function render(value: HtmlValue): string {
	if (value instanceof SafeHtml) return value.value;
	if (Array.isArray(value)) return value.map(render).join('');
	// null, undefined and false render nothing, so `${cond && html`…`}` reads naturally.
	if (value === null || value === undefined || value === false) return '';
	return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
	let out = strings[0] ?? '';
	values.forEach((value, i) => {
		out += render(value) + (strings[i + 1] ?? '');
	});
	return new SafeHtml(out);
}

/** An attribute, or nothing when the value is null (so optional attributes are not rendered empty). */
export function attr(name: string, value: string | null): SafeHtml | null {
	return value === null ? null : html`${new SafeHtml(name)}="${value}"`;
}
