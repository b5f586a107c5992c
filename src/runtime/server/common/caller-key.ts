/**
 * What a per-caller cap counts by: the principal, or the client address when anonymous. One
 * key for every cap (legacy sessions, tasks), so one caller is one caller everywhere.
 *
 * @example
 * ```ts
 * callerKeyOf('ana', '10.0.0.1') // 'principal:ana'
 * callerKeyOf(undefined, '10.0.0.1') // 'address:10.0.0.1'
 * ```
 */
export function callerKeyOf(principal: string | undefined, address: string): string {
  return principal !== undefined ? `principal:${principal}` : `address:${address}`
}
