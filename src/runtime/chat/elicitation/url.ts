/**
 * What the URL-mode view shows before the person consents to open a server's page: the exact
 * host (the one thing a person can check), whether the link is encrypted, and a refusal for links
 * that must never be opened (`javascript:`, `data:`, credentials in the URL).
 */

/** A URL that may be offered, or why it may not. */
export type McpUrlTarget =
  | { ok: true; href: string; host: string; secure: boolean }
  | { ok: false; reason: string }

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * Checks a URL-mode target for display.
 *
 * @example
 * ```ts
 * describeUrlTarget('https://auth.example.com/connect?x=1') // { ok: true, host: 'auth.example.com', secure: true, href: … }
 * describeUrlTarget('javascript:alert(1)') // { ok: false, reason: 'Only http and https links can be opened.' }
 * ```
 */
export function describeUrlTarget(value: string): McpUrlTarget {
  let url: URL
  try {
    url = new URL(value)
  }
  catch {
    return { ok: false, reason: 'The link is not a valid URL.' }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'Only http and https links can be opened.' }
  if (url.username || url.password) return { ok: false, reason: 'The link carries credentials, which is not allowed.' }
  return { ok: true, href: url.href, host: url.host, secure: url.protocol === 'https:' || LOOPBACK.has(url.hostname) }
}
