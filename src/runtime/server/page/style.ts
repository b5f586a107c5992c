/**
 * The question page's one stylesheet, inline (the page loads nothing: its CSP is
 * `default-src 'none'`), and the hash the CSP allows it by. System fonts, one column that fits a
 * phone, light and dark by `prefers-color-scheme`. No `style=""` attribute anywhere: a hash does
 * not cover attributes.
 */

/**
 * The stylesheet, exactly as it goes between `<style>` and `</style>`.
 *
 * @example
 * ```ts
 * renderDocument({ title, style: PAGE_STYLESHEET, body })
 * ```
 */
export const PAGE_STYLESHEET = `
:root { color-scheme: light dark; --bg: #f4f5f7; --card: #fff; --fg: #1b1d21; --muted: #555b65; --line: #c9ccd1; --accent: #1f5fbf; --on-accent: #fff; --danger: #b3261e; --warn: #8a5300; --code: #eef0f3 }
@media (prefers-color-scheme: dark) {
  :root { --bg: #111317; --card: #1b1e24; --fg: #e8eaed; --muted: #a8aeb8; --line: #3a3f48; --accent: #8ab4f8; --on-accent: #0b1a33; --danger: #f2b8b5; --warn: #f6c26b; --code: #262a31 }
}
* { box-sizing: border-box }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif }
main { max-width: 36rem; margin: 0 auto; padding: 1.5rem 1rem 3rem }
h1 { font-size: 1.35rem; line-height: 1.3; margin: 0 0 .5rem }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 1rem 1.1rem; margin: 1rem 0 }
.muted, .hint, .legend { color: var(--muted); font-size: .9rem }
.hint, .legend { margin: .2rem 0 }
.message { font-weight: 600; white-space: pre-wrap; overflow-wrap: anywhere; margin: 0 0 .75rem }
pre { background: var(--code); border-radius: 6px; padding: .6rem .75rem; overflow: auto; max-height: 16rem; font-size: .85rem; margin: .25rem 0 0; white-space: pre-wrap; overflow-wrap: anywhere }
code { overflow-wrap: anywhere }
.field { margin: .9rem 0 }
.field > label, legend { display: block; font-weight: 500; margin-bottom: .25rem; padding: 0 }
a { color: var(--accent) }
input:not([type="checkbox"]), select { width: 100%; padding: .55rem .6rem; font: inherit; color: inherit; background: var(--card); border: 1px solid var(--muted); border-radius: 6px }
input[type="checkbox"] { width: 1.15rem; height: 1.15rem; margin: 0; flex: none }
fieldset { border: 0; padding: 0; margin: 0; min-width: 0 }
.choice, .field > label.choice { display: flex; gap: .6rem; align-items: center; font-weight: 400; padding: .2rem 0 }
.required, .error, .problem { color: var(--danger) }
.error { font-size: .9rem; margin: .25rem 0 0 }
.problem, .summary { font-weight: 500 }
[aria-invalid="true"] { border-color: var(--danger) }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px }
.consent { border-left: 4px solid var(--warn); padding: .25rem 0 .25rem .75rem; margin: 0 0 .75rem }
.warning { color: var(--warn) }
.host { font-size: 1.1rem }
.actions { display: flex; flex-wrap: wrap; gap: .6rem; margin-top: 1.25rem }
button, .button { font: inherit; padding: .6rem 1.1rem; border-radius: 6px; border: 1px solid var(--muted); background: var(--card); color: inherit; cursor: pointer; text-decoration: none; display: inline-block }
.primary { background: var(--accent); border-color: var(--accent); color: var(--on-accent) }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap }
@media (max-width: 30rem) { .actions > * { flex: 1 1 100% } }
`

/**
 * The CSP source that allows {@link PAGE_STYLESHEET}: its SHA-256 in base64. Written out, since
 * the page is rendered wherever the app runs (a Worker has no `node:crypto`, and Web Crypto is
 * async); `test/unit/page/headers.test.ts` recomputes it and fails, naming the new value, when
 * the stylesheet changes.
 *
 * @example
 * ```ts
 * `style-src '${PAGE_STYLESHEET_HASH}'`
 * ```
 */
export const PAGE_STYLESHEET_HASH = 'sha256-q1Rhz9vvZAO6hWMtVKDDvLtLu7tArZqn4iBtHEvl1Ok='
