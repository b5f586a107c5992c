import { McpStoreUnavailableError } from '../server/common/store/store'
import type { McpSharedState } from '../server/cluster/shared-state'
import { MailRefusal, defineMailKind, mailboxOf } from '../server/cluster/mailbox'
import { isRecord } from '../server/common/is-record'
import { toElicitationRequest } from '../chat/elicitation/request'
import type { McpElicitationAnswer, McpElicitationContent, McpElicitationValue } from '../chat/elicitation/types'
import type { McpElicitationRegistry, McpPendingElicitation } from './registry'

/** Options of {@link createSharedElicitationRegistry}. */
export interface SharedRegistryOptions {
  /** Most elicitations this instance waits on at once (default 10 000); `add` throws beyond it. */
  maxEntries?: number
  /** The clock, for tests. */
  now?: () => number
}

/** How long `add` waits for the shared state before the host answers `cancel`: never a hang. */
const READY_WAIT_MS = 2000
/** An entry outlives its deadline by this much, so the waiter's own timeout still finds it and answers `cancel`. */
const EXPIRY_MARGIN_MS = 1000

const entryKey = (id: string) => `host:el:${id}`

interface Waiter {
  expiresAt: number
  resolve: (answer: McpElicitationAnswer) => void
  answer: Promise<McpElicitationAnswer>
}

/** JSON from the shared store, or `undefined` for anything unreadable (another version of the app mid-deploy). */
function readJson(text: string): unknown {
  try {
    return JSON.parse(text)
  }
  catch {
    return undefined
  }
}

function parseStored(text: string): { entry: McpPendingElicitation, waiter: string } | undefined {
  const value = readJson(text)
  if (!isRecord(value) || !isRecord(value.entry) || typeof value.waiter !== 'string') return undefined
  const { id, owner, createdAt, expiresAt } = value.entry
  const request = isRecord(value.entry.request) ? toElicitationRequest(value.entry.request) : 'none'
  if (typeof id !== 'string' || typeof owner !== 'string' || typeof createdAt !== 'number' || typeof expiresAt !== 'number' || typeof request === 'string') return undefined
  return { entry: { id, owner, createdAt, expiresAt, request }, waiter: value.waiter }
}

function isValue(value: unknown): value is McpElicitationValue {
  return ['string', 'number', 'boolean'].includes(typeof value) || (Array.isArray(value) && value.every(item => typeof item === 'string'))
}

/** The answer a page gave, for the instance whose chat waits on it: a letter of the mailbox (cluster/mailbox.ts). */
const ANSWERED = defineMailKind<{ id: string, answer: McpElicitationAnswer }>('host-answer', (body) => {
  if (typeof body.id !== 'string') return new MailRefusal('id', 'is not a string')
  if (!isRecord(body.answer)) return new MailRefusal('answer', 'is not an object')
  const { action, content } = body.answer
  if (action === 'decline' || action === 'cancel') return { id: body.id, answer: { action } }
  if (action !== 'accept') return new MailRefusal('answer.action', 'is none of accept, decline, cancel')
  if (!isRecord(content)) return { id: body.id, answer: { action } }
  const checked: McpElicitationContent = {}
  for (const [name, item] of Object.entries(content)) if (isValue(item)) checked[name] = item
  return { id: body.id, answer: { action, content: checked } }
})

/**
 * The registry of waiting elicitations shared by every instance through Redis: what the host
 * uses by itself when `NUXT_MCP_REDIS_URL` is set, so that a chat served by one instance can be
 * answered through another. An entry is a key that expires a second after its deadline; `settle`
 * takes it atomically (`GETDEL`: the first answer wins) and hands the answer to the instance
 * that waits, over its own channel. Answers of this instance's waiters need no round trip.
 *
 * @example
 * ```ts
 * // What useMcpElicitationRegistry() does by itself when NUXT_MCP_REDIS_URL is set:
 * const registry = createSharedElicitationRegistry(connectRedisState({ url, prefix: 'nuxt-mcp:', route: '/api/_mcp/elicitations' }))
 * ```
 */
export function createSharedElicitationRegistry(shared: Promise<McpSharedState>, options: SharedRegistryOptions = {}): McpElicitationRegistry {
  const maxEntries = options.maxEntries ?? 10_000
  const now = options.now ?? Date.now
  const waiters = new Map<string, Waiter>()
  const resolveHere = (id: string, answer: McpElicitationAnswer): boolean => {
    const waiter = waiters.get(id)
    if (!waiter) return false
    waiters.delete(id)
    waiter.resolve(answer)
    return true
  }
  const subscribed = shared.then(async (state) => {
    const mailbox = mailboxOf(state)
    mailbox.receive(ANSWERED, ({ id, answer }) => void resolveHere(id, answer))
    await mailbox.listening
    return state
  })
  subscribed.catch(() => {})
  // While Redis is away the subscription waits for it; a request must not.
  const ready = () => new Promise<McpSharedState>((resolve, reject) => {
    const timer = setTimeout(() => reject(new McpStoreUnavailableError('the shared registry of waiting elicitations (NUXT_MCP_REDIS_URL) could not be reached; retry later')), READY_WAIT_MS)
    subscribed.then(resolve, reject).finally(() => clearTimeout(timer))
  })

  return {
    async add(entry) {
      const state = await ready()
      if (waiters.size >= maxEntries) throw new Error(`Too many pending elicitations on this instance (${maxEntries}).`)
      const ttl = entry.expiresAt - now() + EXPIRY_MARGIN_MS
      await state.put(entryKey(entry.id), JSON.stringify({ entry, waiter: state.instanceId }), ttl)
      let resolve: (answer: McpElicitationAnswer) => void = () => {}
      const answer = new Promise<McpElicitationAnswer>((done) => { resolve = done })
      waiters.set(entry.id, { expiresAt: entry.expiresAt, resolve, answer })
    },
    async get(id) {
      const stored = await (await ready()).get(entryKey(id))
      const parsed = stored === undefined ? undefined : parseStored(stored)
      return parsed && parsed.entry.expiresAt > now() ? parsed.entry : undefined
    },
    async settle(id, answer) {
      let stored: string | undefined
      try {
        stored = await (await ready()).take(entryKey(id))
      }
      catch (error) {
        // Redis away: this instance's own timeout or abort still ends its wait; an answer from
        // the page cannot be delivered, and says so.
        if (answer.action === 'cancel' && resolveHere(id, answer)) return true
        throw error
      }
      const parsed = stored === undefined ? undefined : parseStored(stored)
      if (!parsed) {
        // Gone from Redis (answered meanwhile, or a Redis that restarted empty): this instance's
        // own timeout or abort still ends its wait.
        if (answer.action === 'cancel' || (waiters.get(id)?.expiresAt ?? Infinity) <= now()) resolveHere(id, { action: 'cancel' })
        return false
      }
      // Past its deadline the entry belongs to the timeout: its waiter gets `cancel`.
      const late = parsed.entry.expiresAt <= now()
      const delivered: McpElicitationAnswer = late ? { action: 'cancel' } : answer
      const state = await ready()
      if (parsed.waiter === state.instanceId) resolveHere(id, delivered)
      else {
        // In the waiting instance's inbox, it is read there once that instance listens again
        // (heard, kept or gone alike: a waiter that never comes back ends with its own deadline).
        const sent = await mailboxOf(state).send(parsed.waiter, ANSWERED, { id, answer: delivered })
        if (sent.outcome === 'unreachable') {
          // Not delivered: the entry goes back, so that the answer sent again finds it.
          if (!late && stored !== undefined) await state.put(entryKey(id), stored, parsed.entry.expiresAt - now() + EXPIRY_MARGIN_MS).catch(() => {})
          throw new McpStoreUnavailableError(`the answer could not be handed to the instance that waits for it (${sent.reason}); send it again`)
        }
      }
      return !late
    },
    wait(id) {
      return waiters.get(id)?.answer ?? Promise.resolve({ action: 'cancel' })
    },
    async prune(at = now()) {
      let count = 0
      for (const [id, waiter] of waiters) {
        if (waiter.expiresAt <= at && resolveHere(id, { action: 'cancel' })) count++
      }
      return count
    },
  }
}
