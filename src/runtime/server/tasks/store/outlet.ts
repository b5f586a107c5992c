import type { LoggingLevel } from '@modelcontextprotocol/server'
import type { ParkedQuestion } from '../../elicitation/run'
import type { TaskRecord } from './record'

/**
 * How a legacy task reaches its session (pushed on an open `tasks/result` or on the GET stream):
 * `ask` resolves with the client's raw answer to a question; `log` sends one of the handler's log
 * lines; `status` tells a change of the task's status. A task without an outlet (2026-07-28)
 * hands its questions out in `tasks/get`, and its log lines reach no client: the extension gives
 * a task no channel for them.
 */
export interface TaskOutlet {
  ask: (record: TaskRecord, question: ParkedQuestion & { wireKey: string }, signal: AbortSignal) => Promise<unknown>
  log: (record: TaskRecord, level: LoggingLevel, data: unknown, logger?: string) => Promise<void>
  status: (record: TaskRecord) => Promise<void>
}
