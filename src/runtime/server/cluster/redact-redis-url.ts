/**
 * Hides the password of a Redis URL for logs and errors. Its own file: the logs that name the
 * Redis URL are built on every preset, the Redis client only where TCP connections can be opened.
 *
 * @example
 * ```ts
 * redactRedisUrl('redis://:hunter2@cache:6379') // 'redis://:***@cache:6379'
 * ```
 */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.href
  }
  catch {
    return '(not a URL)'
  }
}
