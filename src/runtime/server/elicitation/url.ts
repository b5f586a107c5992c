import { McpElicitationError } from './error'

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * Checks a URL-mode target: it must be http(s), carry no credentials, and use https unless it
 * points at this machine (or `allowInsecure` is set). Returns the normalised URL string.
 *
 * @example
 * ```ts
 * checkElicitationUrl('https://example.com/connect', false) // 'https://example.com/connect'
 * checkElicitationUrl('javascript:alert(1)', false)        // throws McpElicitationError('invalid-url')
 * ```
 */
export function checkElicitationUrl(url: string | URL, allowInsecure: boolean): string {
  let parsed: URL
  try {
    parsed = new URL(String(url))
  }
  catch {
    throw new McpElicitationError('invalid-url', `url(): ${JSON.stringify(String(url))} is not an absolute URL. Pass a full https:// URL.`)
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new McpElicitationError('invalid-url', `url(): the scheme "${parsed.protocol}" is not allowed. Only https: (and http: on localhost) URLs can be sent to a client.`)
  }
  if (parsed.username || parsed.password) {
    throw new McpElicitationError('invalid-url', 'url(): the URL carries credentials (user:password@). The spec forbids credentials in URL-mode URLs: remove them and authenticate on the page itself.')
  }
  if (parsed.protocol === 'http:' && !LOOPBACK.has(parsed.hostname) && !allowInsecure) {
    throw new McpElicitationError('invalid-url', `url(): "${parsed.origin}" uses http:. Use https:, or set \`mcp.elicitation.allowInsecureUrls: true\` for a trusted network.`)
  }
  return parsed.href
}
