/**
 * The reference page's anchor of a section of the interface (the page's sections are `section-{number}`). A leaf:
 * every page links sections (components/sectionCitations.ts), so importing it must not bring the diagnosis (and
 * zod) into the browser.
 */
export function sectionAnchor(number: string): string {
	return `section-${number}`;
}
