import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js'
import type { Client as ModernClient } from '@modelcontextprotocol/client'
import { connectV1, connectV2 } from '../../scripts/mcp-clients.mjs'
import type { OnElicit } from '../../scripts/mcp-clients.mjs'

/** A scripted person: gets the elicitation params, returns the answer. */
export type AnswerValue = string | number | boolean | string[]
export interface ScriptedAnswer { [key: string]: unknown, action: 'accept' | 'decline' | 'cancel', content?: Record<string, AnswerValue> }
export type Answerer = (params: Record<string, unknown>) => ScriptedAnswer | Promise<ScriptedAnswer>

export interface ConnectOptions {
  /** Answers elicitations; omit to connect without the elicitation capability. */
  answer?: Answerer
  /** Which modes to declare (default: form and url when `answer` is given). */
  modes?: ('form' | 'url')[]
  /** Every elicitation request the client received, in order. */
  received?: Record<string, unknown>[]
  /** How long `initialize` may take (the SDK's default is 60 s). */
  connectTimeoutMs?: number
  /** Extra fetch options for every request, e.g. an `authorization` header. */
  requestInit?: RequestInit
}

/** The answerer, recording what it is asked in `received`. */
function recordingAnswerer(options: ConnectOptions): OnElicit | undefined {
  const answer = options.answer
  if (!answer) return undefined
  return async (params) => {
    options.received?.push(params)
    return answer(params)
  }
}

function elicitationCapability(options: ConnectOptions) {
  if (!options.answer) return {}
  const modes = options.modes ?? ['form', 'url']
  return { elicitation: Object.fromEntries(modes.map(mode => [mode, {}])) }
}

/**
 * A legacy (2025-11-25) client: the v1 SDK `Client` most shipping hosts embed.
 */
export async function connectLegacy(url: URL, options: ConnectOptions = {}): Promise<LegacyClient> {
  const { client } = await connectV1(url, { name: 'test-legacy', capabilities: elicitationCapability(options), onElicit: recordingAnswerer(options), requestInit: options.requestInit, timeout: options.connectTimeoutMs })
  return client
}

/** How the v2 SDK client picks its era: pinned to 2026-07-28, `auto` (probe, then fall back), or `legacy`. */
export type V2Negotiation = 'pinned' | 'auto' | 'legacy'

/**
 * A v2 SDK `Client`. By default pinned to the stateless 2026-07-28 revision; it answers
 * `input_required` with the same handler and retries by itself.
 */
export async function connectModern(url: URL, options: ConnectOptions = {}, negotiation: V2Negotiation = 'pinned'): Promise<ModernClient> {
  const mode = negotiation === 'pinned' ? { pin: '2026-07-28' } : negotiation
  const { client } = await connectV2(url, { name: `test-v2-${negotiation}`, capabilities: elicitationCapability(options), onElicit: recordingAnswerer(options), requestInit: options.requestInit, mode })
  return client
}

/** The text items of a tool result, joined (throws on anything that is not a tool result). */
export function textOf(result: unknown): string {
  if (typeof result !== 'object' || result === null || !('content' in result) || !Array.isArray(result.content)) throw new Error(`not a tool result: ${JSON.stringify(result)}`)
  return result.content.map((item: unknown) => typeof item === 'object' && item !== null && 'text' in item && typeof item.text === 'string' ? item.text : '').join('')
}
