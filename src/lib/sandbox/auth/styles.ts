/**
 * The authorisation host's static assets: its stylesheet and icon, served from its own origin (so the CSP can say
 * `style-src 'self'; img-src 'self'`). Same palette as the explorer (src/app.css), its own layout: a centred
 * sign-in card.
 */
export const AUTH_CSS_PATH = '/assets/auth.css';
export const AUTH_ICON_PATH = '/assets/icon.svg';

/** The service's shield, drawn by the page's logo and by its icon. */
export const SHIELD_PATH = 'M16 2 4 7v8c0 7.4 5.1 13.6 12 15 6.9-1.4 12-7.6 12-15V7L16 2Zm-1.7 19.3-5-5 2.1-2.1 2.9 2.9 6.9-6.9 2.1 2.1-9 9Z';

/** Without an icon of its own, a browser asks for /favicon.ico and logs a 404 on every page. */
export const AUTH_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path fill="#2851d8" d="${SHIELD_PATH}"/></svg>`;

export const AUTH_CSS = `
:root {
	--bg: #f3f5f8; --surface: #fff; --fg: #16181d; --muted: #5b6270; --border: #d9dde4;
	--accent: #2851d8; --accent-hover: #1f41b3; --accent-fg: #fff; --focus: #2851d8;
	--err: #b3261e; --err-bg: #fdecea; --warn: #8a5a00; --warn-bg: #fff5df; --ok: #137a3a;
	--code-bg: #f2f4f7; --shadow: 0 1px 2px rgb(16 24 40 / 6%), 0 8px 24px rgb(16 24 40 / 8%);
	--sans: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
	--mono: ui-monospace, 'SFMono-Regular', 'Cascadia Mono', 'Roboto Mono', Menlo, Consolas, monospace;
	color-scheme: light;
}
@media (prefers-color-scheme: dark) {
	:root {
		--bg: #0f1115; --surface: #171a21; --fg: #e7e9ee; --muted: #a2a9b6; --border: #2c313c;
		--accent: #8aa8ff; --accent-hover: #a9bfff; --accent-fg: #0f1115; --focus: #8aa8ff;
		--err: #ff8a80; --err-bg: #3a1614; --warn: #f5c26b; --warn-bg: #2e2410; --ok: #6fdc8c;
		--code-bg: #11141a; --shadow: 0 8px 24px rgb(0 0 0 / 40%);
		color-scheme: dark;
	}
}
* { box-sizing: border-box; }
html, body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.5 var(--sans); }
body { min-height: 100vh; display: flex; flex-direction: column; align-items: center; padding: 3rem 1rem 2rem; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.brand { display: flex; align-items: center; gap: .6rem; margin-bottom: 1.5rem; font-weight: 650; font-size: 1.05rem; }
.brand svg { width: 28px; height: 28px; color: var(--accent); }
.badge { font-size: .68rem; font-weight: 700; letter-spacing: .08em; padding: .1rem .45rem; border-radius: 999px;
	background: var(--warn-bg); color: var(--warn); border: 1px solid currentColor; }
.card { width: 100%; max-width: 440px; background: var(--surface); border: 1px solid var(--border); border-radius: 12px;
	box-shadow: var(--shadow); padding: 2rem 2rem 1.75rem; }
h1 { font-size: 1.45rem; line-height: 1.3; margin: 0 0 .35rem; font-weight: 650; }
.lead { color: var(--muted); margin: 0 0 1.5rem; }
.lead strong, .fg { color: var(--fg); }
.chip { display: inline-block; font-size: .85rem; padding: .1rem .55rem; border-radius: 999px;
	border: 1px solid var(--border); background: var(--code-bg); }
.field { margin-bottom: 1.1rem; }
label, legend { display: block; font-weight: 600; margin-bottom: .35rem; font-size: .95rem; }
input[type=text], input[type=email], input[type=password] { width: 100%; font: inherit; color: var(--fg); background: var(--surface);
	border: 1px solid var(--border); border-radius: 8px; padding: .6rem .75rem; }
input[aria-invalid=true] { border-color: var(--err); }
input:focus-visible { outline: 3px solid color-mix(in srgb, var(--focus) 45%, transparent); outline-offset: 0; border-color: var(--focus); }
fieldset { border: 0; padding: 0; margin: 0 0 1.25rem; }
.choice { display: flex; gap: .7rem; align-items: flex-start; padding: .75rem .85rem; border: 1px solid var(--border);
	border-radius: 8px; margin-bottom: .5rem; cursor: pointer; font-weight: 400; }
.choice:has(input:checked) { border-color: var(--accent); background: color-mix(in srgb, var(--accent) 8%, transparent); }
.choice input { margin-top: .3rem; accent-color: var(--accent); }
.choice small { display: block; color: var(--muted); }
.actions { display: flex; gap: .75rem; margin-top: 1.5rem; }
.actions .button { flex: 1; }
.button { display: inline-block; font: inherit; font-weight: 600; text-align: center; cursor: pointer; border-radius: 8px;
	padding: .65rem 1rem; border: 1px solid var(--accent); background: var(--accent); color: var(--accent-fg); width: 100%; }
.button:hover { background: var(--accent-hover); border-color: var(--accent-hover); }
.button.secondary { background: transparent; color: var(--fg); border-color: var(--border); }
.button.secondary:hover { background: var(--code-bg); }
.link-button { font: inherit; background: none; border: 0; padding: 0; color: var(--accent); text-decoration: underline; cursor: pointer; }
.alert { border-radius: 8px; padding: .75rem .9rem; margin: 0 0 1.25rem; background: var(--err-bg); color: var(--err);
	border: 1px solid color-mix(in srgb, var(--err) 35%, transparent); }
h1 + .alert { margin-top: 1rem; }
.alert p { margin: 0; color: var(--fg); }
.alert strong { color: var(--err); }
.note { font-size: .88rem; color: var(--muted); }
.signed-in { display: flex; flex-wrap: wrap; gap: .3rem; align-items: baseline; font-size: .9rem; color: var(--muted);
	padding: .55rem .75rem; border-radius: 8px; background: var(--code-bg); margin: 0 0 1.25rem; }
.signed-in form { display: inline; margin: 0; }
.cancel { margin: 0.9rem 0 0; }
.client { display: flex; gap: .9rem; align-items: center; padding: .9rem; border: 1px solid var(--border);
	border-radius: 10px; margin: 0 0 1.25rem; }
.avatar { flex: none; width: 44px; height: 44px; border-radius: 10px; display: grid; place-items: center; font-weight: 700;
	font-size: 1.2rem; background: color-mix(in srgb, var(--accent) 14%, transparent); color: var(--accent); }
.client div { min-width: 0; }
.client strong { display: block; overflow-wrap: anywhere; }
code { font-family: var(--mono); font-size: .85em; background: var(--code-bg); padding: .05rem .3rem; border-radius: 4px;
	overflow-wrap: anywhere; }
ul.scopes { padding: 0; margin: 0 0 1rem; list-style: none; }
ul.scopes li { padding: .45rem 0 .45rem 1.6rem; position: relative; border-bottom: 1px solid var(--border); }
ul.scopes li:last-child { border-bottom: 0; }
ul.scopes li::before { content: '✓'; position: absolute; left: .2rem; color: var(--ok); font-weight: 700; }
details { margin-top: 1.5rem; border-top: 1px solid var(--border); padding-top: 1rem; font-size: .9rem; }
summary { cursor: pointer; color: var(--muted); font-weight: 600; }
details dl { margin: .75rem 0 0; }
details dt { font-weight: 600; }
details dd { margin: 0 0 .6rem; color: var(--muted); }
.accounts { list-style: none; padding: 0; margin: .75rem 0 0; }
.accounts li { padding: .35rem 0; border-bottom: 1px dashed var(--border); }
.accounts li:last-child { border-bottom: 0; }
.accounts span { display: block; color: var(--muted); font-size: .85rem; }
footer { margin-top: 1.5rem; font-size: .82rem; color: var(--muted); text-align: center; max-width: 440px; }
@media (max-width: 480px) {
	body { padding: 1.25rem .75rem; }
	.card { padding: 1.5rem 1.25rem; border-radius: 10px; }
	.actions { flex-direction: column-reverse; }
}
`;
