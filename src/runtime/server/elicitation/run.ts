import type { ClientCapabilities, InputRequest, LoggingLevel, Server, ServerContext } from '@modelcontextprotocol/server'
import { getMcpFrame, runInMcpFrame } from '../common/context'
import type { McpRequestScope } from '../common/context'
import type { McpServerConfig } from '../common/config'
import type { McpStateStore } from '../common/store/store'
import type { PageFlow } from './page/types'
import type { ReplayFlow } from './state'

export type { PendingQuestion, ReplayFlow } from './state'


/** One question handed out by a parked run: the legacy push and the modern `inputRequests` entry, one of which goes out. */
export interface ParkedQuestion {
  /** The question's key in the handler (`key` option, or its call order). */
  key: string
  /** 1 for the first ask, 2 after the first invalid answer, … */
  attempt: number
  /** The legacy JSON-RPC request. */
  push: { method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list', params: Record<string, unknown> }
  /** The modern `inputRequests` entry. */
  request: InputRequest
  /**
   * The digest of the question (as 2026-07-28's `requestState` binds its answers): an answer
   * kept for this key is reused only for the same question.
   */
  digest: string
}

/**
 * A run that no request waits on (a task): its questions are parked with whoever runs it, who
 * hands each out the way the era says and resolves it with the client's raw answer. The engine
 * only checks, re-asks and types the answer; it never learns what a task is.
 */
export interface ParkedRun {
  /** Aborted when the run is cancelled or ends: the handler's `signal`. */
  signal: AbortSignal
  /** Hands `question` out and resolves with the client's raw answer. */
  ask: (question: ParkedQuestion) => Promise<unknown>
  /** Runs a `once()` step of this run at most once. */
  once: <T>(key: string, step: () => T | Promise<T>) => Promise<T>
  /** The handler's `log()`: where a run without a request sends its log lines. */
  log: (level: LoggingLevel, data: unknown, logger?: string) => Promise<void>
  /** The handler's `progress()`. */
  progress: (progress: number, total?: number, message?: string) => Promise<void>
}


/**
 * One execution of one handler: what `useMcpElicitation()` reads. Legacy runs push questions on
 * the open stream; modern runs collect unanswered questions and end the round.
 */
export interface ElicitationRun {
  scope: McpRequestScope
  ctx: ServerContext
  config: McpServerConfig
  /** Where modern `once()` steps are claimed and recorded (the replay guard). */
  store: McpStateStore
  /** The legacy session's server (for later notifications); absent on modern requests. */
  server?: Server
  /** The client's capabilities for THIS request (modern: its envelope; legacy: its initialize). */
  capabilities: ClientCapabilities | undefined
  /**
   * For `form({ view })`: the view's `ui://` URI when this request's client renders app-rendered
   * elicitations, `undefined` when it gets the plain form; throws `'unknown-view'` for a view that
   * does not exist. Given by the definitions' side: the engine never reads the views itself.
   */
  formView?: (name: string) => string | undefined
  /** Legacy: the protocol revision the session negotiated (forms are adapted to it). */
  protocolVersion?: string
  /** Counts `elicit.*` calls, in call order, to derive default keys. */
  calls: number
  /** The definition being run, for observers (`mcp:question`): its request method and name. */
  call?: { method: string, name: string }
  /** A modern run's flow, its state carried by the client in the signed `requestState`. */
  modern?: ReplayFlow
  /**
   * A `tools/call` whose client cannot show a form or a URL question: such questions wait on the
   * server for the app's own page, and the call is made again once they are answered.
   */
  page?: PageFlow
  /**
   * Set while the run is detached from any request (a task): questions are parked with its
   * runner instead of pushed or ending a round. Set from the start, or when the handler begins
   * its task (then it replaces `modern`).
   */
  parked?: ParkedRun
}

declare module '../common/context' {
  interface McpFrameSlots {
    /** The handler run that `useMcpElicitation()` reads. */
    run: ElicitationRun
  }
}

/** Runs `fn` as handler code of `run` (in the request's frame: one storage for both). */
export function runAsHandler<T>(run: ElicitationRun, fn: () => T): T {
  return runInMcpFrame({ run }, fn)
}

/** The run of the handler currently executing, if any. */
export function getCurrentRun(): ElicitationRun | undefined {
  return getMcpFrame()?.run
}

/** Counters for leak tests; not part of the public API. */
export const elicitationCounters = { pendingLegacy: 0 }
