import { describe, expect, it } from 'vitest';
import { render } from 'svelte/server';
import { ERRATA, SANDBOX_CHOICES, SECTIONS, allErrorRows } from '$lib/protocol';
import Page from './+page.svelte';

const body = render(Page).body;
const ids = [...body.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);

describe('reference page', () => {
	it('anchors every row of the three tables and every cause of each row', () => {
		for (const row of allErrorRows()) {
			expect(ids).toContain(row.id);
			for (const cause of row.causes) expect(ids).toContain(`${row.id}-${cause.id}`);
		}
	});

	it('anchors every erratum, every sandbox choice, and every section the model cites', () => {
		for (const erratum of ERRATA) expect(ids).toContain(erratum.id);
		for (const choice of SANDBOX_CHOICES) expect(ids).toContain(`choice-${choice.id}`);
		for (const section of Object.values(SECTIONS)) expect(ids).toContain(`section-${section}`);
	});

	it('uses each id once', () => {
		expect(new Set(ids).size).toBe(ids.length);
	});
});
