import type { McpElicitationAnswer, McpElicitationRequest } from '../chat/elicitation/types'

/** One elicitation waiting for the person in front of the page. */
export interface McpPendingElicitation {
  /** Random, unguessable (a UUID): the `:id` of the respond endpoint. */
  id: string
  /** Who may answer: the owner key of the browser or user that started the chat request. */
  owner: string
  request: McpElicitationRequest
  /** Epoch milliseconds. */
  createdAt: number
  /** Epoch milliseconds; after it the entry is gone and its waiter gets `cancel`. */
  expiresAt: number
}

/**
 * Where pending elicitations live between the chat route that waits and the respond endpoint
 * that answers. The default ({@link createMcpMemoryElicitationRegistry}) is one process's memory;
 * with several instances behind a load balancer the answer may reach another instance, so give
 * every instance the same shared store (see docs/host.md for a Redis sketch).
 *
 * Contract: `settle` is atomic (the first answer wins, later ones get `false`) and removes the
 * entry; `wait` resolves, on the instance that called `add`, with the answer that settled it.
 */
export interface McpElicitationRegistry {
  /** Stores a new pending entry. May throw when the store is full (the host then answers `cancel`). */
  add: (entry: McpPendingElicitation) => Promise<void>
  /** The pending entry, or undefined when unknown, expired or already answered. */
  get: (id: string) => Promise<McpPendingElicitation | undefined>
  /** Answers a pending entry. False when it is unknown, expired or already answered. */
  settle: (id: string, answer: McpElicitationAnswer) => Promise<boolean>
  /**
   * Resolves with the answer once the entry is settled (by anyone, including a timeout). Called
   * right after `add`, before the request is shown; an unknown id resolves with `cancel`.
   */
  wait: (id: string) => Promise<McpElicitationAnswer>
  /** Drops expired entries (their waiters get `cancel`); returns how many. */
  prune: (now?: number) => Promise<number>
}

/** Options of {@link createMcpMemoryElicitationRegistry}. */
export interface McpMemoryRegistryOptions {
  /** Most pending entries at once (default 10 000); `add` throws beyond it. */
  maxEntries?: number
  /** The clock, for tests. */
  now?: () => number
}

interface Slot {
  entry: McpPendingElicitation
  resolve: (answer: McpElicitationAnswer) => void
  answer: Promise<McpElicitationAnswer>
}

/**
 * The in-memory registry: right for one server process (and for `nuxi dev`). Expired entries are
 * pruned on every `add` and `get`, so nothing piles up even when a waiter's timer never fired.
 *
 * @example
 * ```ts
 * // server/plugins/mcp-host.ts: the default, made explicit
 * export default defineNitroPlugin(() => {
 *   setMcpElicitationRegistry(createMcpMemoryElicitationRegistry({ maxEntries: 1000 }))
 * })
 * ```
 */
export function createMcpMemoryElicitationRegistry(options: McpMemoryRegistryOptions = {}): McpElicitationRegistry {
  const maxEntries = options.maxEntries ?? 10_000
  const now = options.now ?? Date.now
  const slots = new Map<string, Slot>()

  function take(id: string, answer: McpElicitationAnswer): boolean {
    const slot = slots.get(id)
    if (!slot) return false
    slots.delete(id)
    slot.resolve(answer)
    return true
  }

  async function prune(at = now()): Promise<number> {
    let count = 0
    for (const [id, slot] of slots) {
      if (slot.entry.expiresAt <= at && take(id, { action: 'cancel' })) count++
    }
    return count
  }

  return {
    async add(entry) {
      await prune()
      if (slots.has(entry.id)) throw new Error(`An elicitation with id ${entry.id} is already pending.`)
      if (slots.size >= maxEntries) throw new Error(`Too many pending elicitations (${maxEntries}).`)
      let resolve: (answer: McpElicitationAnswer) => void = () => {}
      const answer = new Promise<McpElicitationAnswer>((done) => { resolve = done })
      slots.set(entry.id, { entry, resolve, answer })
    },
    async get(id) {
      await prune()
      return slots.get(id)?.entry
    },
    async settle(id, answer) {
      const slot = slots.get(id)
      if (!slot) return false
      // Past its deadline the entry belongs to the timeout: its waiter gets `cancel`.
      if (slot.entry.expiresAt <= now()) {
        take(id, { action: 'cancel' })
        return false
      }
      return take(id, answer)
    },
    wait(id) {
      return slots.get(id)?.answer ?? Promise.resolve({ action: 'cancel' })
    },
    prune,
  }
}
