/**
 * Sections of the interface cited in running text ("section 7.1", "Section 3", "(2.2)", "(4.1.1)"), as links to the
 * reference page, which shows each section. CodeText renders every text through this, so any text that cites a
 * section links it; a component that names a section itself takes its address from `sectionHref`.
 */
import { REFERENCE_SECTIONS } from './referenceSections';

export interface CitedSpan {
	text: string;
	/** The reference page's address of the cited section; absent for plain text. */
	href?: string;
}

const ANCHORS = new Map(REFERENCE_SECTIONS.map((s) => [s.number, s.anchor]));

/**
 * The reference page's address of a section: its own anchor, else its nearest ancestor's (5.6 is an item of
 * section 5), else its first subsection's (7: 7.1); undefined for a number the interface does not have.
 */
export function sectionHref(number: string): string | undefined {
	for (let n = number; n !== ''; n = n.includes('.') ? n.slice(0, n.lastIndexOf('.')) : '') {
		const anchor = ANCHORS.get(n);
		if (anchor) return `/reference#${anchor}`;
	}
	const first = REFERENCE_SECTIONS.find((s) => s.number.startsWith(`${number}.`));
	return first && `/reference#${first.anchor}`;
}

// "section 7.1", "Section 3", "§7.2" whole; in parentheses, a dotted number alone: "(2.2)", or a single digit.
const CITATION = /(?:\b[Ss]ection |§ ?)(\d+(?:\.\d+)*)\b|(?<=\()(\d+(?:\.\d+)+|\d)(?=\))/g;

export function citedSpans(text: string): CitedSpan[] {
	const spans: CitedSpan[] = [];
	let last = 0;
	for (const match of text.matchAll(CITATION)) {
		const [whole, named, parenthesised] = match;
		// "(3)" may be a count: a single digit in parentheses is a citation only of a section the interface has.
		if (parenthesised && !parenthesised.includes('.') && !ANCHORS.has(parenthesised)) continue;
		const href = sectionHref(named ?? parenthesised!);
		if (!href) continue;
		if (match.index > last) spans.push({ text: text.slice(last, match.index) });
		spans.push({ text: whole, href });
		last = match.index + whole.length;
	}
	if (last < text.length) spans.push({ text: text.slice(last) });
	return spans;
}
