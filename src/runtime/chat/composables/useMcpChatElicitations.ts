import { computed, ref, toValue } from 'vue'
import type { ComputedRef, MaybeRefOrGetter, Ref } from 'vue'
import { MCP_ELICITATION_HEADER, MCP_ELICITATION_PART_TYPE } from '../elicitation/types'
import type { McpElicitationAnswer, McpElicitationPartData } from '../elicitation/types'
import { useMcpHostUrlCheck } from './useMcpHostUrlCheck'

/** The part of an AI SDK `UIMessage` this composable reads (any `chat.messages` fits). */
export interface McpChatMessageLike {
  id: string
  parts: ReadonlyArray<{ type: string }>
}

/** A pending elicitation found in the messages, with the first message that carries it. */
export type McpChatElicitation = McpElicitationPartData & { messageId: string }

/** The outcome of {@link McpChatElicitations.respond}. */
export type McpRespondResult =
  | { ok: true }
  | { ok: false; status: number; error: string; fields?: Record<string, string> }

/** What {@link useMcpChatElicitations} returns. */
export interface McpChatElicitations {
  /** Elicitations still waiting for this person, each once, oldest first. */
  pending: ComputedRef<McpChatElicitation[]>
  /** True for the one message part that should show elicitation `id` (the first, while pending). */
  isShownIn: (messageId: string, id: string) => boolean
  /** Ids with an answer on its way. */
  sending: Ref<Record<string, boolean>>
  /** Messages per field from the host's last 400 answer, by elicitation id. */
  errors: Ref<Record<string, Record<string, string>>>
  /** POSTs an answer to the host's respond endpoint. */
  respond: (id: string, answer: McpElicitationAnswer) => Promise<McpRespondResult>
}

function isPartData(value: unknown): value is McpElicitationPartData {
  if (typeof value !== 'object' || value === null) return false
  const data: Partial<Record<keyof McpElicitationPartData, unknown>> = value
  return typeof data.id === 'string' && typeof data.respondUrl === 'string' && typeof data.status === 'string' && (data.mode === 'form' || data.mode === 'url')
}

function partData(part: { type: string }): McpElicitationPartData | undefined {
  if (part.type !== MCP_ELICITATION_PART_TYPE || !('data' in part)) return undefined
  return isPartData(part.data) ? part.data : undefined
}

function readError(body: unknown, fallback: string): { error: string; fields?: Record<string, string> } {
  if (typeof body !== 'object' || body === null) return { error: fallback }
  const error = 'error' in body && typeof body.error === 'string' ? body.error : fallback
  const fields = 'fields' in body && typeof body.fields === 'object' && body.fields !== null ? body.fields : undefined
  const clean = fields ? Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string')) : undefined
  return clean ? { error, fields: clean } : { error }
}

/**
 * Picks the MCP elicitations a host route wrote into a `useChat` conversation and sends the
 * person's answers back. Each elicitation is offered once: parts the server marked `answered` or
 * `expired`, parts past their deadline, and ids answered from this page are left out. An answer is
 * posted only to this host's respond route (`<route>/<id>` on the page's origin): any other
 * `respondUrl` in the message data is refused with an error that names it.
 *
 * @example
 * ```vue
 * <script setup lang="ts">
 * import { Chat } from '@ai-sdk/vue'
 * const chat = new Chat({})
 * const elicitations = useMcpChatElicitations(() => chat.messages)
 * </script>
 * <template>
 *   <McpElicitationForm v-for="item in elicitations.pending.value" :key="item.id" :request="item"
 *     :busy="elicitations.sending.value[item.id]" :errors="elicitations.errors.value[item.id]"
 *     @respond="answer => elicitations.respond(item.id, answer)" />
 * </template>
 * ```
 */
export function useMcpChatElicitations(
  messages: MaybeRefOrGetter<readonly McpChatMessageLike[]>,
  options: { fetch?: typeof fetch; now?: () => number } = {},
): McpChatElicitations {
  const done = ref<Record<string, boolean>>({})
  const sending = ref<Record<string, boolean>>({})
  const errors = ref<Record<string, Record<string, string>>>({})
  const now = options.now ?? Date.now
  const refuseUrl = useMcpHostUrlCheck()

  const pending = computed(() => {
    const seen = new Map<string, McpChatElicitation>()
    for (const message of toValue(messages)) {
      for (const part of message.parts) {
        const data = partData(part)
        if (!data) continue
        const first = seen.get(data.id)
        // The latest state wins (a reload may hold an old copy); the first message keeps showing it.
        seen.set(data.id, { ...data, messageId: first?.messageId ?? message.id })
      }
    }
    const at = now()
    return [...seen.values()].filter(item => item.status === 'pending' && !done.value[item.id] && item.expiresAt > at)
  })

  async function respond(id: string, answer: McpElicitationAnswer): Promise<McpRespondResult> {
    const item = pending.value.find(entry => entry.id === id)
    if (!item) return { ok: false, status: 404, error: 'This elicitation is no longer pending.' }
    // Message data may come from a stored or shared conversation: post only to this host's route.
    const refusal = refuseUrl('respondUrl', item.respondUrl)
    if (refusal) return { ok: false, status: 0, error: refusal }
    sending.value = { ...sending.value, [id]: true }
    try {
      const response = await (options.fetch ?? fetch)(item.respondUrl, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', [MCP_ELICITATION_HEADER]: '1' },
        body: JSON.stringify(answer),
      })
      const body: unknown = await response.json().catch(() => undefined)
      if (response.ok) {
        done.value = { ...done.value, [id]: true }
        return { ok: true }
      }
      const problem = readError(body, `The answer was refused (HTTP ${response.status}).`)
      // Gone for good (answered elsewhere, expired): stop offering it.
      if (response.status === 404) done.value = { ...done.value, [id]: true }
      if (problem.fields) errors.value = { ...errors.value, [id]: problem.fields }
      return { ok: false, status: response.status, ...problem }
    }
    catch (error) {
      return { ok: false, status: 0, error: `The answer could not be sent: ${error instanceof Error ? error.message : String(error)}` }
    }
    finally {
      sending.value = { ...sending.value, [id]: false }
    }
  }

  return {
    pending,
    isShownIn: (messageId, id) => pending.value.some(item => item.id === id && item.messageId === messageId),
    sending,
    errors,
    respond,
  }
}
