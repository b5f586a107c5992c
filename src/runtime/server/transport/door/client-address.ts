import type { IncomingMessage } from 'node:http'

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) → `10.0.0.1`. */
function normalize(address: string): string {
  const trimmed = address.trim()
  return trimmed.startsWith('::ffff:') && trimmed.includes('.') ? trimmed.slice('::ffff:'.length) : trimmed
}

function ipv4ToNumber(address: string): number | undefined {
  const parts = address.split('.')
  if (parts.length !== 4) return undefined
  let value = 0
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined
    value = value * 256 + Number(part)
  }
  return value
}

/**
 * Whether `address` is one of `trusted`: exact addresses (IPv4 or IPv6) or IPv4 ranges in CIDR
 * form (`10.0.0.0/8`).
 *
 * @example
 * ```ts
 * isTrustedProxy('10.1.2.3', ['10.0.0.0/8']) // true
 * ```
 */
export function isTrustedProxy(address: string, trusted: string[]): boolean {
  const ip = normalize(address)
  return trusted.some((entry) => {
    const [range, bits] = entry.split('/')
    if (bits === undefined) return normalize(entry) === ip
    const base = ipv4ToNumber(range ?? '')
    const value = ipv4ToNumber(ip)
    const size = Number(bits)
    if (base === undefined || value === undefined || !(size >= 0 && size <= 32)) return false
    const mask = size === 0 ? 0 : (~0 << (32 - size)) >>> 0
    return ((base & mask) >>> 0) === ((value & mask) >>> 0)
  })
}

/**
 * The address of the client behind this request. The peer's own address, unless the peer is a
 * trusted proxy: then `X-Forwarded-For` is read from the right, past every trusted proxy, to the
 * address the nearest trusted proxy added. Never the left-most entry, which the client wrote.
 *
 * @example
 * ```ts
 * // peer 127.0.0.1 (trusted), X-Forwarded-For: 1.2.3.4, 10.0.0.66
 * clientAddressOf(req, ['127.0.0.1']) // '10.0.0.66'
 * ```
 */
export function clientAddressOf(req: IncomingMessage, trustedProxies: string[]): string {
  const peer = normalize(req.socket?.remoteAddress ?? '')
  if (trustedProxies.length === 0 || !isTrustedProxy(peer, trustedProxies)) return peer
  const header = req.headers['x-forwarded-for']
  const hops = (Array.isArray(header) ? header.join(',') : header ?? '').split(',').map(normalize).filter(Boolean)
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isTrustedProxy(hops[i]!, trustedProxies)) return hops[i]!
  }
  return hops[0] ?? peer
}
