import type { McpEndpoint } from '../transport/door/endpoint'
import type { McpServerConfig } from '../common/config'
import { listElicitationRecords } from './recorder'
import type { ElicitationRecord } from './recorder'
import type { TaskRecord } from '../tasks/record'
import { isRecord } from '../common/is-record'

/** What the DevTools tab shows: the definitions as clients list them, and recent elicitations. */
export interface McpDevtoolsData {
  server: { name: string, version: string }
  tools: { name: string, file: string, description?: string, fields: string[] }[]
  resources: { name: string, file: string, uri: string, description?: string }[]
  prompts: { name: string, file: string, description?: string, arguments: string[] }[]
  elicitations: ElicitationRecord[]
  tasks: McpDevtoolsTask[]
}

/** One task as the tab lists it: where it is, what it waits for, what was answered, how long it took. */
export interface McpDevtoolsTask {
  id: string
  tool: string
  era: 'legacy' | 'modern'
  status: string
  statusMessage?: string
  /** When it was created (ISO time). */
  at: string
  /** Until it ended, or until now while it runs. */
  ms: number
  /** The messages of the questions it waits on. */
  questions: string[]
  /** The answers given, by the key they were asked under (dev only: the developer's own test data). */
  answers: Record<string, unknown>
}

function messageOf(params: unknown): string | undefined {
  return isRecord(params) && typeof params.message === 'string' ? params.message : undefined
}

function describeTask(record: TaskRecord): McpDevtoolsTask {
  const ended = record.status === 'completed' || record.status === 'failed' || record.status === 'cancelled'
  return {
    id: record.id,
    tool: record.tool,
    era: record.era,
    status: record.status,
    ...(record.statusMessage !== undefined && { statusMessage: record.statusMessage }),
    at: new Date(record.createdAt).toISOString(),
    ms: (ended ? record.lastUpdatedAt : Date.now()) - record.createdAt,
    questions: Object.values(record.questions).map(request => messageOf(request.params) ?? request.method),
    answers: { ...record.answers },
  }
}

/**
 * Collects the DevTools tab's data from the running endpoint. Names, descriptions and fields
 * come from the same precomputed lists `tools/list` and friends answer with.
 *
 * @example
 * ```ts
 * return collectDevtoolsData(useMcpEndpoint(event), config)
 * ```
 */
export function collectDevtoolsData(endpoint: McpEndpoint, config: McpServerConfig): McpDevtoolsData {
  const { registry } = endpoint
  const fileOf = (map: Map<string, { file: string }>, key: string) => map.get(key)?.file ?? ''
  return {
    server: { name: config.name, version: config.version },
    tools: registry.lists.tools.map(tool => ({
      name: tool.name,
      file: fileOf(registry.tools, tool.name),
      description: tool.description,
      fields: Object.keys(tool.inputSchema.properties ?? {}),
    })),
    resources: [
      ...registry.lists.resources.map(resource => ({ name: resource.name, uri: resource.uri, description: resource.description, file: registry.resources.get(resource.uri)?.file ?? '' })),
      ...registry.lists.templates.map(template => ({ name: template.name, uri: template.uriTemplate, description: template.description, file: registry.templates.find(t => t.name === template.name)?.file ?? '' })),
    ],
    prompts: registry.lists.prompts.map(prompt => ({
      name: prompt.name,
      file: fileOf(registry.prompts, prompt.name),
      description: prompt.description,
      arguments: (prompt.arguments ?? []).map(argument => argument.name),
    })),
    elicitations: listElicitationRecords(),
    tasks: (endpoint.tasks?.list() ?? []).map(describeTask).reverse(),
  }
}
