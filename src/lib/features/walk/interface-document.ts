/**
 * The interface document itself (`protocol/service-interface.md`, the contract as the service publishes it), cut
 * into its numbered sections and rendered for the reference page, so that a cited "section 7.2" opens the
 * document's own words. Raw HTML in the document is shown as text (markdown-it with `html: false`).
 */
import MarkdownIt from 'markdown-it';
import documentText from '$lib/protocol/service-interface.md?raw';

export interface DocumentSection {
	/** "7.2", as the document numbers it. */
	number: string;
	title: string;
	/** The section's own text up to its first subsection, rendered. */
	html: string;
}

const HEADING = /^#{2,4} (\d+(?:\.\d+)*)\.? (.+)$/;

/** The numbered sections of a Markdown document, each with its own text (a subsection is a section of its own). */
export function splitSections(markdown: string): { number: string; title: string; body: string }[] {
	const sections: { number: string; title: string; body: string }[] = [];
	for (const line of markdown.split('\n')) {
		const heading = HEADING.exec(line);
		if (heading) sections.push({ number: heading[1]!, title: heading[2]!.trim(), body: '' });
		else if (sections.length > 0) sections.at(-1)!.body += `${line}\n`;
	}
	return sections.map((section) => ({ ...section, body: section.body.trim() }));
}

export function renderSections(document: string): DocumentSection[] {
	const markdown = new MarkdownIt({ html: false, linkify: false });
	return splitSections(document).map(({ number, title, body }) => ({ number, title, html: markdown.render(body) }));
}

let rendered: DocumentSection[] | undefined;

/** The interface's sections, rendered once per process. */
export function interfaceDocument(): DocumentSection[] {
	rendered ??= renderSections(documentText);
	return rendered;
}
