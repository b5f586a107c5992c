import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { decodeBase64Url, encodeBase64Url } from '../common/base64url'
import { isRecord } from '../common/is-record'
import type { InputRequest } from '@modelcontextprotocol/server'
import type { QuestionKind } from './question'

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

// What a flow that replays the handler each round holds (a modern run's, whose state the client
// carries in the signed form above; a page run's, whose state the server keeps).

/**
 * A question waiting for its answer in the current modern round.
 *
 * @example
 * ```ts
 * flow.pending.set('q0', { request, q: digest, n: 1, kind: 'elicit' })
 * ```
 */
export interface PendingQuestion {
  request: InputRequest
  /** Digest of the original question (mode, message, schema or URL): answers are bound to it. */
  q: string
  /** How many times it has been asked, counting this one. */
  n: number
  kind: QuestionKind
  /** A consent question (`confirm()`): a person answers it, never a model. */
  consent?: boolean
}

/**
 * A flow that replays the handler from the top each round: what the earlier rounds left (their
 * state, answers and `once()` results), this round's answers, and the questions it leaves open.
 * A modern run's state travels with the client; a page run's stays on the server.
 *
 * @example
 * ```ts
 * const result = await askReplay(run, run.page.replay, 'q0', question)
 * ```
 */
export interface ReplayFlow {
  state: ModernFlowState | undefined
  responses: Record<string, unknown>
  /** Answers accepted so far, carried into the next state. */
  answers: ModernFlowState['answers']
  /** `once()` results so far, carried into the next state. */
  steps: Record<string, { v?: unknown }>
  pending: Map<string, PendingQuestion>
  /** Called when a question becomes pending: the engine ends the round soon after. */
  onPending: () => void
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

const encoder = new TextEncoder()

/**
 * HMAC-SHA256 of `bytes` under `secret`, in pure JS: the same on every runtime (no `node:crypto`),
 * and synchronous. Web Crypto's `subtle.sign` measured 47 µs per call on Node 22 (a thread-pool
 * hop), this 6 µs; a modern round signs once and verifies once.
 */
function mac(secret: string, bytes: Uint8Array): Uint8Array {
  return hmac(sha256, encoder.encode(secret), bytes)
}

/** Compares in constant time (for equal lengths): a MAC check must not leak where it differs. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!
  return difference === 0
}

/** What is signed: the domain, length-prefixed so no (domain, body) pair can pass for another. */
function signedBytes(key: StateKey, body: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(`${key.domain.length}:${key.domain}|${body}`)
}

/** What a session tag signs under: no state's domain (a server name, a space, a route) is this one. */
const SESSION_TAG_DOMAIN = 'legacy-session-tag'

/**
 * A legacy session's id as telemetry carries it (spans, the server's log lines, the `mcp:call` and
 * `mcp:question` events): HMAC-SHA256 of the id under the state secret, 32 hex characters. For an
 * anonymous session the id is the only credential, so what reaches a log drain or a trace backend
 * must not let its reader take the session over: one-way, and keyed, so ids cannot be tried
 * against it offline; the same on every instance that shares NUXT_MCP_STATE_SECRET, so a
 * session's traces and lines still group wherever its requests land.
 *
 * @example
 * ```ts
 * sessionTagOf(secret, 'c0f7…') // '3e9a0c…' (32 hex characters), the same for the same secret and id
 * ```
 */
export function sessionTagOf(secret: string, sessionId: string): string {
  return bytesToHex(mac(secret, signedBytes({ secret, domain: SESSION_TAG_DOMAIN }, sessionId))).slice(0, 32)
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
  // Synchronous by design (a question's digest is taken while asking): a pure-JS SHA-256, the
  // same on every runtime.
  return encodeBase64Url(sha256(encoder.encode(canonicalJson(value)))).slice(0, 32)
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
 * Seals a flow state into the opaque `requestState` string (HMAC-SHA256).
 *
 * @example
 * ```ts
 * const wire = sealRequestState({ secret, domain: 'my-app /mcp' }, { exp: Date.now() + 600_000, bind, answers: {}, asked: { q0: { q, n: 1 } } })
 * ```
 */
export function sealRequestState(key: StateKey, state: ModernFlowState): string {
  const body = encodeBase64Url(encoder.encode(JSON.stringify(state)))
  return `${VERSION}.${body}.${encodeBase64Url(mac(key.secret, signedBytes(key, `${VERSION}.${body}`)))}`
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
  const [version, body, signature, ...rest] = wire.split('.')
  const given = signature === undefined ? undefined : decodeBase64Url(signature)
  if (version !== VERSION || !body || !given || given.length === 0 || rest.length > 0) throw new RequestStateError('malformed requestState')
  if (!sameBytes(mac(key.secret, signedBytes(key, `${version}.${body}`)), given)) {
    throw new RequestStateError('requestState signature mismatch (tampered, signed with another NUXT_MCP_STATE_SECRET, or minted by another endpoint)')
  }
  let state: unknown
  try {
    state = JSON.parse(new TextDecoder().decode(decodeBase64Url(body)))
  }
  catch {
    throw new RequestStateError('requestState body is not JSON')
  }
  if (!isFlowState(state)) throw new RequestStateError('requestState body has the wrong shape')
  if (state.exp < now) throw new RequestStateError('requestState expired')
  if (state.bind !== expectedBind) throw new RequestStateError('requestState belongs to another request, arguments or principal')
  return state
}
