import { describe, expect, it } from 'vitest';
import { escapeHtml, html } from './html';

describe('html', () => {
	it('escapes every interpolated string, in content and in attributes', () => {
		const name = `<script>alert("x")</script>`;
		const attr = `" onmouseover='x' \``;
		expect(html`<p title="${attr}">${name}</p>`.value).toBe(
			'<p title="&quot; onmouseover=&#39;x&#39; &#96;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</p>'
		);
	});
	it('passes nested html through unescaped and escapes strings inside arrays', () => {
		const items = ['a&b', html`<b>c</b>`];
		expect(html`<ul>${items}</ul>`.value).toBe('<ul>a&amp;b<b>c</b></ul>');
	});
	it('renders null, undefined and false as nothing but keeps 0', () => {
		expect(html`[${null}${undefined}${false}${0}]`.value).toBe('[0]');
	});
	it('escapes ampersands first so entities are not double-decoded', () => {
		expect(escapeHtml('&lt;')).toBe('&amp;lt;');
	});
});
