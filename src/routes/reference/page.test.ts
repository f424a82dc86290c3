import { describe, expect, it } from 'vitest';
import { render } from 'svelte/server';
import { ERRATA, SANDBOX_CHOICES, SECTIONS, allErrorRows } from '$lib/protocol';
import { curlExamples, exampleKey } from '$lib/features/scenarios/pure/curl-examples';
import { interfaceDocument } from '$lib/features/walk/interface-document';
import Page from './+page.svelte';

const examples = Object.fromEntries(curlExamples({ authUrl: 'http://localhost:3001', accountsUrl: 'http://localhost:3002', redirectUri: 'http://localhost:3000/callback' }));
const demoClient = { id: 'demo-client', secret: 'demo-secret-change-me' };
const body = render(Page, { props: { data: { curlExamples: examples, demoClient, document: interfaceDocument() } } }).body;
/** What the page shows of a text: HTML-escaped as Svelte escapes it. */
const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const ids = [...body.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);

describe('reference page', () => {
	it('shows each cause\'s curl script, or why the sandbox cannot produce it, inside that cause', () => {
		for (const row of allErrorRows()) {
			for (const cause of row.causes) {
				const start = body.indexOf(`id="${row.id}-${cause.id}"`);
				const section = body.slice(start, body.indexOf('</li>', start));
				const example = examples[exampleKey(row.id, cause.id)]!;
				expect(section, `${row.id} ${cause.id}`).toContain(escaped(example.kind === 'unavailable' ? example.why : example.script));
			}
		}
		expect(body).toContain(escaped(examples.success!.kind === 'api' ? examples.success!.script : ''));
	});

	it('shows no curl section when the sandbox is off', () => {
		const off = render(Page, { props: { data: { curlExamples: null, demoClient: null, document: interfaceDocument() } } }).body;
		expect(off).not.toContain('id="curl"');
		expect(off).not.toContain('Try it on the sandbox');
	});

	it('shows the demo client\'s secret once, where the scripts that read CLIENT_SECRET are', () => {
		const curl = body.slice(body.indexOf('id="curl"'));
		expect(curl).toContain(`export CLIENT_SECRET='${demoClient.secret}'`);
		expect(body.split(demoClient.secret).length - 1).toBe(2); // the sentence and the export line
	});

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

	it('shows a cited section in the interface document\'s own words', () => {
		const start = body.indexOf(`id="section-${SECTIONS.code}"`);
		const section = body.slice(start, body.indexOf('</article>', start));
		expect(section).toContain('Authorisation grant code');
		expect(section).toContain('Single use.');
	});

	it('uses each id once', () => {
		expect(new Set(ids).size).toBe(ids.length);
	});
});
