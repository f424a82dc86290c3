/**
 * A value a sanitiser put in place of a secret before sharing a recording (`[REDACTED]`, `<removed>`, `***`,
 * `xxxx`, `FILTERED`): what was there is unknown, so nothing may be said of it as if it were the value sent.
 */
const WORDS = /^[[<({]?\s*(redacted|removed|filtered|hidden|masked|sanitized|sanitised|scrubbed|omitted)\s*[\]>)}]?$/i;
/** A run of one masking character, as tools and people write it. */
const MASK_RUN = /^([*x•#?])\1{2,}$/i;

export function isPlaceholder(value: string): boolean {
	const text = value.trim();
	return WORDS.test(text) || MASK_RUN.test(text);
}
