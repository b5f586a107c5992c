import type { ElicitationAnsweredEvent, ElicitationAskedEvent, ElicitationEvent } from '../elicitation/events'
import { ownValue } from '../common/own'
import type { Question } from '../elicitation/question'
import type { ElicitationRun } from '../elicitation/run'
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
   * `answered` (sampling, roots), `invalid, asked again` (modern) or the error code.
   */
  outcome: string
  /** The content the client sent, valid or not. Dev only: it is the developer's own test data. */
  content?: unknown
  /** Why the answer was refused. */
  issues?: string[]
  /**
   * Milliseconds until the outcome: how long the person took. Modern: from the round whose
   * `input_required` asked to the retry that brought the answer.
   */
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

type RecordsByKey = WeakMap<ElicitationRun, Map<string, ElicitationRecord>>
/** Legacy: the record of each question still waiting for the person. */
const waiting: RecordsByKey = new WeakMap()
/** Modern: the record of each answer this round brought, until the round's `asked` event. */
const answeredNow: RecordsByKey = new WeakMap()

/** Removes and returns the record `run` keeps under `key` in `map`. */
function take(map: RecordsByKey, run: ElicitationRun, key: string): ElicitationRecord | undefined {
  const record = map.get(run)?.get(key)
  map.get(run)?.delete(key)
  return record
}

function keep(map: RecordsByKey, run: ElicitationRun, key: string, record: ElicitationRecord): void {
  const byKey = map.get(run) ?? new Map<string, ElicitationRecord>()
  byKey.set(key, record)
  map.set(run, byKey)
}

function newRecord(run: ElicitationRun, described: Pick<ElicitationRecord, 'mode' | 'message' | 'fields' | 'url'>, outcome: string): ElicitationRecord {
  const body = isRecord(run.scope.body) ? run.scope.body : {}
  const params = isRecord(body.params) ? body.params : {}
  const record: ElicitationRecord = {
    id: nextId++,
    at: new Date().toISOString(),
    era: run.scope.era,
    method: typeof body.method === 'string' ? body.method : '',
    target: String(params.name ?? params.uri ?? ''),
    ...described,
    outcome,
  }
  records.push(record)
  if (records.length > MAX_RECORDS) records.shift()
  return record
}

/** When a modern question was sent: its state expires `stateTtlSeconds` after the round that asked. */
function sentAt(run: ElicitationRun, key: string): number | undefined {
  const state = run.modern?.state
  return state && ownValue(state.asked, key) ? state.exp - run.config.elicitation.stateTtlSeconds * 1000 : undefined
}

function follow(record: ElicitationRecord, outcome: Promise<unknown>, started: number): void {
  outcome.then(
    (value) => { Object.assign(record, outcomeOf(value), { ms: Date.now() - started }) },
    (error: unknown) => { Object.assign(record, { outcome: isRecord(error) && typeof error.code === 'string' ? error.code : 'error', ms: Date.now() - started }) },
  )
}

function recordAsked({ run, key, question, outcome }: ElicitationAskedEvent): void {
  const modern = run.modern
  // Modern rounds re-run the handler: a question answered in an earlier round is not news.
  if (modern?.state && ownValue(modern.state.answers, key) !== undefined) return
  const answered = modern ? take(answeredNow, run, key) : undefined
  if (answered) {
    // This round brought an answer (recorded on `answered`): valid, or refused and asked again.
    if (modern?.pending.has(key)) answered.outcome = 'invalid, asked again'
    else follow(answered, outcome, sentAt(run, key) ?? Date.now())
    return
  }
  const record = newRecord(run, describeQuestion(question), 'waiting')
  // Modern: an unanswered question went into this round's input_required, and its promise never settles.
  if (modern?.pending.has(key)) record.outcome = 'sent'
  else follow(record, outcome, Date.now())
  if (!modern) keep(waiting, run, key, record)
}

function recordAnswered({ run, key, question, response, issues }: ElicitationAnsweredEvent): void {
  let record: ElicitationRecord | undefined
  if (run.modern) {
    // A new row for this round's answer, finished by the round's `asked` event (none comes when
    // the answer stayed invalid too often: the row then keeps `invalid-response`).
    record = newRecord(run, describeQuestion(question), issues ? 'invalid-response' : 'answered')
    record.ms = Date.now() - (sentAt(run, key) ?? Date.now())
    keep(answeredNow, run, key, record)
  }
  else {
    record = take(waiting, run, key)
  }
  if (!record) return
  if (isRecord(response) && response.content !== undefined) record.content = keepContent(response.content)
  if (issues) record.issues = issues.map(clip)
}

/**
 * Records questions and follows them to their outcome, with the content the client sent: the
 * engine's event listener, attached in `nuxi dev` only (a production server never keeps what
 * people answered).
 *
 * @example
 * ```ts
 * const stop = onElicitationEvent(recordElicitation)
 * ```
 */
export function recordElicitation(event: ElicitationEvent): void {
  if (event.type === 'asked') recordAsked(event)
  // A legacy re-ask shows on the answered row (its outcome says the answer was invalid).
  else if (event.type === 'answered') recordAnswered(event)
}
