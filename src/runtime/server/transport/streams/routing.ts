import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server'
import type { ResponseSink } from '../http/response-sink'
import type { JournalEvent, JournalSink } from './journal'
import type { QuestionNote } from '../../tasks/store/question-note'

/** The id of the `initialize` replayed to hydrate a session another instance opened: its answer goes nowhere. */
export const HYDRATE_ID = 'nuxt-mcp-hydrate'

/**
 * How a session shared by several instances routes what crosses them. The requests this
 * instance sends the client carry its tag in their id (`<instanceId>.<n>`), so two instances
 * never both send id 0 and the answer finds its way back.
 */
export interface SessionRouting {
  instanceId: string
  /** The client answered a request another instance sent: hand it over. */
  forward: (instanceId: string, message: JSONRPCMessage) => void
  /** A request this instance sends is a task's question: noted, so its answer outlives this instance. */
  notePush: (requestId: string, note: QuestionNote) => void
  /** A client message that every instance holding the session must see (a cancellation, `logging/setLevel`). */
  broadcast: (message: JSONRPCMessage) => Promise<void>
  /** A message for the session's GET stream, which another instance may hold. */
  toStream: (message: JSONRPCMessage) => void
  /**
   * A request for the session's GET stream (a task's question): handed to the instance holding
   * the stream until it kept it; `keepHere` keeps it on this instance's own, should that be the holder.
   */
  toHolder: (message: JSONRPCMessage, keepHere: () => boolean) => void
  /** Keeps the events of this instance's resumable streams where the other instances can find them. */
  journals?: JournalSink
  /**
   * Resumes a stream another instance opened (`GET` + `Last-Event-ID`) on `res`; `false` when
   * the stream is this instance's own.
   */
  resume?: (streamId: string, seq: number, res: ResponseSink, headers: Record<string, string>) => boolean
  /**
   * A connection took the session's GET stream here, under journal `streamId`: recorded in the
   * shared state, then announced, so that an instance that held it before stops keeping events.
   */
  holdGet?: (streamId: string) => void
  /** The journal of the instance that took the session's GET stream last; `undefined` when unknown. */
  getHolder?: () => Promise<string | undefined>
  /** The kept events of another instance's GET stream journal (none when they are gone). */
  replay?: (streamId: string) => Promise<JournalEvent[]>
}

/** `<instanceId>.<n>` → the instance and the SDK's own numeric id. */
export function splitRoutedId(id: RequestId): { instanceId: string, id: number } | undefined {
  const match = typeof id === 'string' ? /^([a-z0-9]+)\.(\d+)$/.exec(id) : null
  return match ? { instanceId: match[1]!, id: Number(match[2]) } : undefined
}
