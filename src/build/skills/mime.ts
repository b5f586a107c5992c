/**
 * The media type of a skill file, by its extension: what `resources/list` and `resources/read`
 * say a file is. It must not know skills beyond a file's name.
 */

/** Extensions skills commonly carry, and their media types. */
const BY_EXTENSION: Record<string, string> = {
  md: 'text/markdown', markdown: 'text/markdown', txt: 'text/plain', csv: 'text/csv', html: 'text/html', css: 'text/css',
  json: 'application/json', yaml: 'application/yaml', yml: 'application/yaml', xml: 'application/xml', toml: 'application/toml',
  js: 'text/javascript', mjs: 'text/javascript', ts: 'text/typescript', py: 'text/x-python', sh: 'text/x-shellscript', rb: 'text/x-ruby', sql: 'application/sql',
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml', ico: 'image/x-icon',
  pdf: 'application/pdf', zip: 'application/zip', gz: 'application/gzip', wasm: 'application/wasm',
}

/**
 * The media type of `path`: by its extension, else `text/plain` for text and
 * `application/octet-stream` for anything else.
 *
 * @example
 * ```ts
 * mimeTypeOf('refunds/SKILL.md', true)        // 'text/markdown'
 * mimeTypeOf('refunds/assets/logo.png', false) // 'image/png'
 * mimeTypeOf('refunds/LICENSE', true)         // 'text/plain'
 * ```
 */
export function mimeTypeOf(path: string, text: boolean): string {
  const name = path.split('/').pop() ?? ''
  const dot = name.lastIndexOf('.')
  const known = dot > 0 ? BY_EXTENSION[name.slice(dot + 1).toLowerCase()] : undefined
  return known ?? (text ? 'text/plain' : 'application/octet-stream')
}
