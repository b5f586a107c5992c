import type { McpQuestionEvent } from '../elicitation/question-events'

/** One question a handler asked, as the DevTools tab lists it (dev only). */
export interface QuestionRecord {
  id: number
  /** When it was asked, or (modern) when the retry brought its answer (ISO time). */
  at: string
  /** The route of the endpoint that asked. */
  endpoint: string
  era: 'legacy' | 'modern'
  /** The JSON-RPC method of the call that asked, and its tool / prompt name or resource URI. */
  method: string
  target: string
  /** `form`, `url`, `sampling` or `roots`. */
  mode: string
  message?: string
  /** Form: the field names asked for. */
  fields?: string[]
  /** URL mode: the target URL (only with `mcp.observe.answers`, on in `nuxi dev`). */
  url?: string
  /**
   * `waiting` (the person has not answered yet: legacy, or a task), `sent` (modern: went out in an
   * `input_required`, the answer arrives with the client's retry), the person's `action`,
   * `answered` (sampling, roots), `invalid, asked again` (modern), `invalid-response` or the
   * error code that ended the wait.
   */
  outcome: string
  /** The content the client sent, valid or not (only with `mcp.observe.answers`: the developer's own test data). */
  content?: unknown
  /** Why the answer was refused. */
  issues?: string[]
  /** Milliseconds until the outcome: how long the person took (modern: from the round that asked). */
  ms?: number
}

const MAX_RECORDS = 100
// Each record is kept small: answers can be as large as the body limit.
const MAX_TEXT = 2000
const MAX_OPEN = 200
let records: QuestionRecord[] = []
let nextId = 1

/**
 * The rows an event of the same run may still change, by run and key: a waiting question (legacy,
 * task), or a modern answer that an `asked` of the same round turns into "invalid, asked again".
 * Bounded: a modern `sent` row is never updated (its answer comes in another run).
 */
const open = new Map<string, { record: QuestionRecord, by: 'asked' | 'answer' }>()

/**
 * The latest records, newest first.
 *
 * @example
 * ```ts
 * const [latest] = listQuestionRecords()
 * ```
 */
export function listQuestionRecords(): QuestionRecord[] {
  return records.slice().reverse()
}

/**
 * Forgets every record (the tab's "Clear").
 *
 * @example
 * ```ts
 * clearQuestionRecords()
 * ```
 */
export function clearQuestionRecords(): void {
  records = []
  open.clear()
}

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}… (${text.length} characters)` : text
}

/** The answer as kept: the value itself, or its clipped JSON text when that is long. */
function keepContent(content: unknown): unknown {
  const json = JSON.stringify(content) ?? ''
  return json.length > MAX_TEXT ? clip(json) : content
}

function newRecord(event: McpQuestionEvent, outcome: string): QuestionRecord {
  const record: QuestionRecord = {
    id: nextId++,
    at: new Date().toISOString(),
    endpoint: event.endpoint,
    era: event.era,
    method: event.call?.method ?? '',
    target: event.call?.name ?? '',
    mode: event.kind === 'elicit' ? (event.mode ?? 'form') : event.kind === 'sample' ? 'sampling' : 'roots',
    ...(event.message !== undefined && { message: clip(event.message) }),
    ...(event.fields && { fields: event.fields }),
    ...(event.url !== undefined && { url: clip(event.url) }),
    outcome,
  }
  records.push(record)
  if (records.length > MAX_RECORDS) records.shift()
  return record
}

function keepOpen(id: string, record: QuestionRecord, by: 'asked' | 'answer'): void {
  open.set(id, { record, by })
  if (open.size > MAX_OPEN) open.delete(open.keys().next().value!)
}

/** What an answer stage shows as the outcome: the person's action, or `answered` for sampling and roots. */
function outcomeOf(event: McpQuestionEvent): string {
  if (event.stage === 'declined') return 'decline'
  if (event.stage === 'cancelled') return 'cancel'
  if (event.stage === 'timed-out') return 'timeout'
  if (event.stage === 'failed') return event.errorCode ?? 'error'
  if (event.stage === 'invalid') return 'invalid-response'
  return event.kind === 'elicit' ? 'accept' : 'answered'
}

function applyAnswer(record: QuestionRecord, event: McpQuestionEvent): void {
  record.outcome = outcomeOf(event)
  if (event.waitedMs !== undefined) record.ms = Math.round(event.waitedMs)
  if (event.content !== undefined) record.content = keepContent(event.content)
  if (event.issues) record.issues = event.issues.map(clip)
}

/**
 * Records a question's moves, told by the `mcp:question` hook, as the tab's rows: a legacy (or
 * task) question is one row followed to its outcome; a modern flow is a `sent` row per round that
 * asked and a row per answer a retry brought. A listener of the app's own hook, attached by the
 * dev-only Nitro plugin: a production server keeps nothing of what people answered.
 *
 * @example
 * ```ts
 * nitro.hooks.hook('mcp:question', recordQuestion)
 * ```
 */
export function recordQuestion(event: McpQuestionEvent): void {
  const id = `${event.runId} ${event.key}`
  const held = open.get(id)
  if (event.stage === 'asked') {
    // Asked again in the same run: a legacy re-ask waits on its row; a modern round re-asks after the answer it refused.
    if (held?.by === 'answer') {
      held.record.outcome = 'invalid, asked again'
      open.delete(id)
    }
    else if (held) held.record.outcome = 'waiting'
    // A question the client could not show waits on the app's page: the tab says so.
    else keepOpen(id, newRecord(event, event.via === 'input-required' ? 'sent' : event.via === 'page' ? 'on the app\'s page' : 'waiting'), 'asked')
    return
  }
  // A modern answer arrives in the retry, a run of its own: a new row.
  const record = held?.record ?? newRecord(event, '')
  applyAnswer(record, event)
  if (event.stage === 'invalid') {
    if (!held) keepOpen(id, record, 'answer')
  }
  else open.delete(id)
}
