import { PAGE_SCRIPT } from './page-script'

/**
 * The DevTools tab: one self-contained page (Nuxt DevTools shows it in an iframe; it also works
 * on its own in a browser tab). Its script (`page-script.ts`) polls `<base>.json` and renders.
 */

// Tables keep to the panel's width: fixed layout, long words broken; in a narrow panel (the
// DevTools side panel, 500 px) each row becomes a block of labelled cells that wrap.
const STYLE = `
:root { color-scheme: light dark; font: 14px/1.45 system-ui, sans-serif; }
body { margin: 0; padding: 16px 20px; }
h1 { font-size: 18px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 24px 0 2px; } h3 { font-size: 14px; margin: 14px 0 4px; }
.muted { opacity: .65; } code, pre { font: 12px ui-monospace, monospace; } pre { margin: 0; white-space: pre-wrap; }
.bar { display: flex; flex-wrap: wrap; gap: 8px; margin: 10px 0; } .bar input { flex: 1 1 160px; min-width: 0; }
section.endpoint { border-top: 2px solid #8884; margin-top: 12px; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #8883; vertical-align: top; overflow-wrap: anywhere; }
th { font-weight: 600; } h2 code, .inspector-line { overflow-wrap: anywhere; }
.install { margin: 4px 0; overflow-wrap: anywhere; } .install summary { cursor: pointer; }
.install-row { display: grid; grid-template-columns: minmax(90px, 12em) minmax(0, 1fr) auto; gap: 8px; align-items: start; padding: 3px 0; border-bottom: 1px solid #8882; }
.install-value { overflow-wrap: anywhere; }
.accept, .ok { color: #16a34a; }
.decline, .cancel, .timeout, .cancelled, .error, .invalid-response, .invalid, .issue, .tool-error, .protocol-error { color: #dc2626; }
.waiting, .sent, .input-required { color: #d97706; }
@media (max-width: 700px) {
  body { padding: 10px 12px; }
  thead { display: none; }
  table, tbody, tr, td { display: block; width: auto; }
  tr { border-bottom: 1px solid #8883; padding: 4px 0; }
  td { display: inline-block; max-width: 100%; border: 0; padding: 1px 14px 1px 0; }
  td[data-label]:not([data-label=""]):not(:empty)::before { content: attr(data-label) ': '; opacity: .6; }
  td[data-label]:empty, td:has(> pre:empty:only-child) { display: none; }
  .install-row { grid-template-columns: minmax(0, 1fr) auto; } .install-label { grid-column: 1 / -1; opacity: .7; }
}
`

/**
 * The page's HTML. `nonce` allows its one inline script under the page's CSP.
 *
 * @example
 * ```ts
 * setHeader(event, 'content-security-policy', devtoolsPolicy(nonce))
 * return renderDevtoolsPage(nonce)
 * ```
 */
export function renderDevtoolsPage(nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>MCP</title><style>${STYLE}</style></head>
<body>
<h1>MCP</h1><div id="status" class="muted">Loading…</div>
<div class="bar">
<select id="endpoint" aria-label="Endpoint"><option value="">Every endpoint</option></select>
<input id="filter" type="search" placeholder="Filter by text" aria-label="Filter">
<button id="clear" type="button">Clear calls and questions</button>
</div>
<div id="endpoints"></div>
<script nonce="${nonce}">${PAGE_SCRIPT}</script>
</body></html>`
}

/**
 * The page's Content-Security-Policy: its own script and data only, framed by its own origin only.
 *
 * @example
 * ```ts
 * setHeader(event, 'content-security-policy', devtoolsPolicy(nonce))
 * ```
 */
export function devtoolsPolicy(nonce: string): string {
  return `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'self'`
}

/**
 * The tab's icon, served by the dev server itself: Nuxt DevTools shows an icon given as a path
 * (`/…`) as an image, and looks any other name up in Iconify over the network.
 */
export const DEVTOOLS_ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" fill="none" stroke="#888" stroke-width="2" stroke-linejoin="round"><path d="M5 6h22v15H14l-6 5v-5H5z"/><path d="M11 12h10M11 16h6" stroke-linecap="round"/></svg>`
