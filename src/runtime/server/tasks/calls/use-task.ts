import { getMcpFrame } from '../../common/context'
import { McpElicitationError } from '../../elicitation/error'
import type { McpTaskControl } from './calls'

/** What a handler knows of its task: whether the call runs as one, its id, and where it begins. */
export interface McpTask {
  /** Whether this call runs as a task (the tool allows it and the client asked, or must). */
  readonly isTask: boolean
  /** The task's id once it exists; `undefined` before `begin()` and in an ordinary call. */
  readonly id: string | undefined
  /**
   * Begins the task here (tools with `execution.taskStart: 'on-begin'`): the call answers with the
   * task, and the rest of the handler runs in the background, its questions asked through the
   * task. Does nothing in an ordinary call or where the task already runs.
   */
  begin: () => Promise<void>
}

const ORDINARY_CALL: McpTask = { isTask: false, id: undefined, begin: async () => {} }

/**
 * The task of the tool call being run. Call it in a tool handler, before the first `await`
 * where the request context does not follow `await` (Workers without `nodejs_compat`).
 *
 * @example
 * ```ts
 * export default defineMcpTool({
 *   execution: { taskSupport: 'required', taskStart: 'on-begin' },
 *   async handler() {
 *     const elicit = useMcpElicitation()
 *     const task = useMcpTask()
 *     const target = await elicit.form({ message: 'Deploy where?', schema: { env: z.enum(['staging', 'production']) } })
 *     if (target.action !== 'accept') return 'Nothing deployed.'
 *     await task.begin() // the client gets the task now; the deploy runs on
 *     await deploy(target.content.env)
 *     return `Deployed to ${target.content.env}.`
 *   },
 * })
 * ```
 */
export function useMcpTask(): McpTask {
  const frame = getMcpFrame()
  if (!frame?.run) {
    throw new McpElicitationError('outside-handler', 'useMcpTask() was called outside an MCP tool handler (or, where the request context does not follow `await`, after the handler\'s first `await`). Call it at the top of the `handler` function.')
  }
  const control: McpTaskControl | undefined = frame.task
  if (!control) return ORDINARY_CALL
  return new TaskHandle(control)
}

/** A task call's handle: `id` read through to the control as it becomes known (a getter on the prototype, see sse.ts). */
class TaskHandle implements McpTask {
  readonly isTask = true
  readonly begin: () => Promise<void>
  readonly #control: McpTaskControl

  constructor(control: McpTaskControl) {
    this.#control = control
    // Its own function: a handler may destructure `begin`.
    this.begin = () => control.begin()
  }

  get id(): string | undefined {
    return this.#control.id
  }
}
