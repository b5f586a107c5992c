/**
 * The page's HTML ground: escaping (every string from a question, a tool's arguments or a server's
 * name is text, never markup) and the shell every page of the folder shares.
 */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\'': '&#39;' }

/**
 * Escapes text for an element's content or a quoted attribute value (both quote kinds, so an
 * attribute is safe whichever quote it uses).
 *
 * @example
 * ```ts
 * escapeHtml('<script>"x"</script>') // '&lt;script&gt;&quot;x&quot;&lt;/script&gt;'
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, char => ENTITIES[char] ?? char)
}

/**
 * An attribute value: a string or number, `true` (present without a value), or absent
 * (`false`/`undefined`).
 *
 * @example
 * ```ts
 * const list: Record<string, HtmlAttribute> = { required: true, min: 0, 'aria-invalid': undefined }
 * ```
 */
export type HtmlAttribute = string | number | boolean | undefined

/**
 * Writes the attributes of a tag, values escaped, absent ones left out.
 *
 * @example
 * ```ts
 * attributes({ type: 'checkbox', name: 'q0.f1', checked: true, required: false }) // ' type="checkbox" name="q0.f1" checked'
 * ```
 */
export function attributes(list: Record<string, HtmlAttribute>): string {
  let out = ''
  for (const [name, value] of Object.entries(list)) {
    if (value === undefined || value === false) continue
    out += value === true ? ` ${name}` : ` ${name}="${escapeHtml(String(value))}"`
  }
  return out
}

/**
 * A whole HTML document: the charset, a phone's viewport, no referrer (as the header says too, for
 * a page saved to disk), no indexing, the inline stylesheet, and `body` as given (already HTML).
 *
 * @example
 * ```ts
 * renderDocument({ title: 'Acme: a question', style: PAGE_STYLESHEET, body: '<main>…</main>' })
 * ```
 */
export function renderDocument(page: { title: string, style: string, body: string }): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    '<meta name="robots" content="noindex, nofollow">',
    `<title>${escapeHtml(page.title)}</title>`,
    `<style>${page.style}</style>`,
    '</head>',
    `<body>${page.body}</body>`,
    '</html>',
  ].join('\n')
}
