/**
 * Waits until `check` (sync or async) holds, polling every `everyMs`; throws naming `what` after
 * `timeoutMs`. (A check that opens a session each time wants a slower poll: sessions are capped.)
 *
 * @example
 * ```ts
 * await until(() => changes === 1, 'tools/list_changed')
 * ```
 */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000, everyMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms`)
    await new Promise(resolve => setTimeout(resolve, everyMs))
  }
}
