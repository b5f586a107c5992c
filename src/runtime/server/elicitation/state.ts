import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { isRecord } from '../common/is-record'

/**
 * What a modern (2026-07-28) flow carries between rounds. The client holds it, so it is signed
 * (HMAC-SHA256) and every field that steers logic is checked on the way back in.
 */
export interface ModernFlowState {
  /** Expiry, unix milliseconds. */
  exp: number
  /** Digest of principal + method + target + arguments: the state only replays that request. */
  bind: string
  /** Answers accepted in earlier rounds: key → question digest and the validated response. */
  answers: Record<string, { q: string, r: unknown }>
  /** Questions asked in the round this state ended: key → question digest, attempt count, kind. */
  asked: Record<string, { q: string, n: number, k: 'elicit' | 'sample' | 'roots' }>
  /** Results of `once()` steps already run in earlier rounds: key → JSON value. */
  steps?: Record<string, { v?: unknown }>
  /** The flow's id, fixed at its first round: `once()` steps are guarded per flow under it. */
  nonce?: string
}

/**
 * What signs a state: the shared secret, and the endpoint it is for (server name and route), so a
 * state minted by one endpoint is refused by another that shares the secret.
 */
export interface StateKey {
  secret: string
  domain: string
}

/** Why a state was refused; goes to logs, never to the wire (the SDK freezes that message). */
export class RequestStateError extends Error {
  override readonly name = 'RequestStateError'
}

const VERSION = 'nme1'

function sign(key: StateKey, body: string): string {
  // The domain is length-prefixed so no (domain, body) pair can pass for another.
  return createHmac('sha256', key.secret).update(`${key.domain.length}:${key.domain}|${body}`).digest('base64url')
}

/**
 * A short, stable digest of any JSON value: keys are sorted so `{a,b}` and `{b,a}` agree.
 *
 * @example
 * ```ts
 * digestJson({ b: 1, a: [2] }) === digestJson({ a: [2], b: 1 }) // true
 * ```
 */
export function digestJson(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('base64url').slice(0, 32)
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/**
 * Seals a flow state into the opaque `requestState` string.
 *
 * @example
 * ```ts
 * const wire = sealRequestState({ secret, domain: 'my-app /mcp' }, { exp: Date.now() + 600_000, bind, answers: {}, asked: { q0: { q, n: 1 } } })
 * ```
 */
export function sealRequestState(key: StateKey, state: ModernFlowState): string {
  const body = Buffer.from(JSON.stringify(state)).toString('base64url')
  return `${VERSION}.${body}.${sign(key, `${VERSION}.${body}`)}`
}

function isFlowState(value: unknown): value is ModernFlowState {
  return isRecord(value) && typeof value.exp === 'number' && typeof value.bind === 'string'
    && isRecord(value.answers) && isRecord(value.asked) && (value.steps === undefined || isRecord(value.steps))
    && (value.nonce === undefined || typeof value.nonce === 'string')
}

/**
 * Opens a `requestState` string: checks format, signature (constant time), expiry and binding.
 * Throws {@link RequestStateError} with the reason; the caller turns it into the JSON-RPC error.
 *
 * @example
 * ```ts
 * const state = openRequestState({ secret, domain: 'my-app /mcp' }, wire, expectedBind)
 * ```
 */
export function openRequestState(key: StateKey, wire: string, expectedBind: string, now = Date.now()): ModernFlowState {
  const [version, body, mac, ...rest] = wire.split('.')
  if (version !== VERSION || !body || !mac || rest.length > 0) throw new RequestStateError('malformed requestState')
  const expected = Buffer.from(sign(key, `${version}.${body}`))
  const given = Buffer.from(mac)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new RequestStateError('requestState signature mismatch (tampered, signed with another NUXT_MCP_STATE_SECRET, or minted by another endpoint)')
  }
  let state: unknown
  try {
    state = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'))
  }
  catch {
    throw new RequestStateError('requestState body is not JSON')
  }
  if (!isFlowState(state)) throw new RequestStateError('requestState body has the wrong shape')
  if (state.exp < now) throw new RequestStateError('requestState expired')
  if (state.bind !== expectedBind) throw new RequestStateError('requestState belongs to another request, arguments or principal')
  return state
}
