import type { Cluster } from './cluster'
import { postModern } from './raw'

/** What a 2026-07-28 task client declares: forms, and the tasks extension. */
export const TASK_CAPABILITIES = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } }

/**
 * The raw 2026-07-28 task calls the several-instances tests make against one cluster: an
 * instance's own endpoint (no nginx in between), a request as user `x-user` with the task
 * capabilities (and the `Mcp-Name` header a task request names its task with), and a task's
 * status read through an instance.
 *
 * @example
 * ```ts
 * const cluster = useCluster('shared-state', 2)
 * const { endpointOf, call, statusOf } = clusterTaskCalls(cluster)
 * const created = await call(endpointOf(0), 'tools/call', { name: 'task_once', arguments: {}, task: {} })
 * ```
 */
export function clusterTaskCalls(cluster: () => Cluster) {
  function endpointOf(index: number): URL {
    const instance = cluster().instances[index]
    if (!instance) throw new Error(`no instance ${index}`)
    return new URL('/mcp', instance.origin)
  }
  function call(url: URL, method: string, params: Record<string, unknown>, user = 'ada') {
    const headers: Record<string, string> = { 'x-user': user }
    if (typeof params.taskId === 'string') headers['mcp-name'] = params.taskId
    return postModern(url, method, params, { capabilities: TASK_CAPABILITIES, headers })
  }
  async function statusOf(url: URL, taskId: string): Promise<Record<string, unknown> | undefined> {
    return (await call(url, 'tasks/get', { taskId })).message.result
  }
  return { endpointOf, call, statusOf }
}
