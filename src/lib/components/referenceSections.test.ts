import { describe, expect, it } from 'vitest';
import { SECTIONS } from '$lib/protocol';
import { REFERENCE_SECTIONS, sectionAnchor } from './referenceSections';

describe('reference sections', () => {
	it('lists every section the protocol model cites once, each with a title and anchor', () => {
		expect(REFERENCE_SECTIONS.map((s) => s.number)).toEqual(Object.values(SECTIONS));
		expect(new Set(REFERENCE_SECTIONS.map((s) => s.anchor)).size).toBe(REFERENCE_SECTIONS.length);
		expect(REFERENCE_SECTIONS.every((s) => s.title.length > 0)).toBe(true);
	});

	it('anchors a section by its number', () => {
		expect(sectionAnchor('4.1.1')).toBe('section-4.1.1');
	});
});
