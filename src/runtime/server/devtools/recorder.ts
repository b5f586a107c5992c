import type { ElicitationAskedEvent } from '../elicitation/events'
import type { Question } from '../elicitation/question'
import { isRecord } from '../common/is-record'

/** One question a handler asked, as the DevTools tab lists it (dev only). */
export interface ElicitationRecord {
  id: number
  /** When it was asked (ISO time). */
  at: string
  era: 'legacy' | 'modern'
  /** The JSON-RPC method of the call that asked, and its tool / prompt name or resource URI. */
  method: string
  target: string
  /** `form`, `url`, `sampling` or `roots`. */
  mode: string
  message?: string
  /** Form: the field names asked for. URL mode: the target URL. */
  fields?: string[]
  url?: string
  /**
   * `waiting` (legacy: the person has not answered yet), `sent` (modern: went out in an
   * `input_required`, the answer arrives with the client's retry), the person's `action`,
   * `answered` (sampling, roots) or the error code.
   */
  outcome: string
  /** The accepted form content. Dev only: it is the developer's own test data. */
  content?: unknown
  /** Milliseconds until the outcome (legacy: how long the person took). */
  ms?: number
}

const MAX_RECORDS = 50
// Each record is kept small: answers can be as large as the body limit.
const MAX_TEXT = 2000
const records: ElicitationRecord[] = []
let nextId = 1

/**
 * The latest records, newest first.
 *
 * @example
 * ```ts
 * const [latest] = listElicitationRecords()
 * ```
 */
export function listElicitationRecords(): ElicitationRecord[] {
  return records.slice().reverse()
}

function describeQuestion(question: Question<unknown>): Pick<ElicitationRecord, 'mode' | 'message' | 'fields' | 'url'> {
  const params = question.params
  if (question.kind !== 'elicit') return { mode: question.kind === 'sample' ? 'sampling' : 'roots' }
  const message = typeof params.message === 'string' ? clip(params.message) : undefined
  if (params.mode === 'url') return { mode: 'url', message, url: typeof params.url === 'string' ? params.url : undefined }
  const schema = params.requestedSchema
  return { mode: 'form', message, fields: isRecord(schema) && isRecord(schema.properties) ? Object.keys(schema.properties) : [] }
}

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}… (${text.length} characters)` : text
}

/** The answer as kept: the value itself, or its clipped JSON text when that is long. */
function keepContent(content: unknown): unknown {
  const json = JSON.stringify(content) ?? ''
  return json.length > MAX_TEXT ? clip(json) : content
}

function outcomeOf(value: unknown): Pick<ElicitationRecord, 'outcome' | 'content'> {
  if (isRecord(value) && typeof value.action === 'string') return { outcome: value.action, ...(value.content !== undefined && { content: keepContent(value.content) }) }
  return { outcome: 'answered' }
}

/**
 * Records a question and follows it to its outcome: the engine's `onElicitationAsked` listener,
 * installed in `nuxi dev` only (a production server never keeps what people answered).
 *
 * @example
 * ```ts
 * const stop = onElicitationAsked(recordElicitation)
 * ```
 */
export function recordElicitation({ run, key, question, outcome }: ElicitationAskedEvent): void {
  // Modern rounds re-run the handler: a question answered in an earlier round is not news.
  if (run.modern?.state?.answers[key] !== undefined) return
  const body = isRecord(run.scope.body) ? run.scope.body : {}
  const params = isRecord(body.params) ? body.params : {}
  const record: ElicitationRecord = {
    id: nextId++,
    at: new Date().toISOString(),
    era: run.modern ? 'modern' : 'legacy',
    method: typeof body.method === 'string' ? body.method : '',
    target: String(params.name ?? params.uri ?? ''),
    ...describeQuestion(question),
    outcome: 'waiting',
  }
  records.push(record)
  if (records.length > MAX_RECORDS) records.shift()
  const started = Date.now()
  // Modern: an unanswered question went into this round's input_required, and its promise never settles.
  if (run.modern?.pending.has(key)) record.outcome = 'sent'
  outcome.then(
    (value) => { Object.assign(record, outcomeOf(value), { ms: Date.now() - started }) },
    (error: unknown) => { Object.assign(record, { outcome: isRecord(error) && typeof error.code === 'string' ? error.code : 'error', ms: Date.now() - started }) },
  )
}
