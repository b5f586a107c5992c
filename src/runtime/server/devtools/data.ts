import type { McpEndpoint } from '../transport/door/endpoint'
import type { McpServerConfig } from '../common/config'
import { toList } from '../common/config'
import { listQuestionRecords } from './recorder'
import type { QuestionRecord } from './recorder'
import { listCallRecords } from './call-recorder'
import type { CallRecord } from './call-recorder'
import { inspectorCommand, inspectorLink } from './inspector-link'
import { buildInstallLinks, installNameOf } from './install-links'
import type { McpInstallLinks } from './install-links'
import type { TaskRecord } from '../tasks/store/record'
import { isRecord } from '../common/is-record'

/** What the DevTools tab shows: every endpoint with its definitions and tasks, and the recent calls and questions. */
export interface McpDevtoolsData {
  endpoints: McpDevtoolsEndpoint[]
  /** Newest first; each names its endpoint's route. */
  calls: CallRecord[]
  questions: QuestionRecord[]
}

/** One endpoint as the tab lists it: where it is, what it serves (as clients list it), its tasks. */
export interface McpDevtoolsEndpoint {
  route: string
  /** Its address as the browser showing the tab reaches the dev server. */
  url: string
  /** The command that starts the MCP Inspector with that address filled in, and the running Inspector's link to it. */
  inspector: { link: string, command: string }
  install: McpDevtoolsInstall
  /** OAuth on this endpoint (`mcp.auth`): the client signs in itself on first use, asking for these scopes. */
  auth?: { scopes: string[] }
  server: { name: string, version: string }
  tools: { name: string, file: string, description?: string, fields: string[], view?: string }[]
  resources: { name: string, file: string, uri: string, description?: string }[]
  prompts: { name: string, file: string, description?: string, arguments: string[] }[]
  /** MCP App views (`ui://` resources) and the tools that show them. */
  views: { name: string, uri: string, file: string, tools: string[] }[]
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

/**
 * What adds an endpoint to Cursor, VS Code and Claude Code: filed under `name` (its server name
 * made a safe config key), at its URL. The links carry the name and the URL only, never a token.
 *
 * @example
 * ```ts
 * const install: McpDevtoolsInstall = { name: 'shop', ...buildInstallLinks({ name: 'shop', url: 'http://localhost:3000/mcp' }) }
 * ```
 */
export type McpDevtoolsInstall = McpInstallLinks & { name: string }

/**
 * An endpoint's install links, and whether its clients will have to sign in (`mcp.auth` on
 * there). Nothing of the auth settings goes into a link: a client that meets OAuth finds the
 * authorization server in the endpoint's 401 and runs the sign-in itself.
 *
 * @example
 * ```ts
 * describeInstall('http://localhost:3000/mcp/admin', { name: 'shop-admin', auth })
 * // { install: { name: 'shop-admin', cursor: {…}, vscode: {…}, claude: {…} }, auth: { scopes: ['admin'] } }
 * ```
 */
export function describeInstall(url: string, config: Pick<McpServerConfig, 'name' | 'auth'>): Pick<McpDevtoolsEndpoint, 'install' | 'auth'> {
  const name = installNameOf(config.name)
  return {
    install: { name, ...buildInstallLinks({ name, url }) },
    ...(toList(config.auth.issuers).length > 0 && { auth: { scopes: toList(config.auth.scopes) } }),
  }
}

/** One endpoint of the app, as the devtools route hands it over. */
export interface DevtoolsEndpointInput {
  route: string
  /** Absolute, from the request's own origin and `app.baseURL`. */
  url: string
  endpoint: McpEndpoint
  config: McpServerConfig
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
    // The answers as given; the digest of each one's question is the task's own business.
    answers: Object.fromEntries(Object.entries(record.answers).map(([key, answer]) => [key, answer.r])),
  }
}

/** The `ui://` resource a tool's `_meta.ui` names, if any. */
function viewOf(meta: unknown): string | undefined {
  const ui = isRecord(meta) ? meta.ui : undefined
  return isRecord(ui) && typeof ui.resourceUri === 'string' ? ui.resourceUri : undefined
}

function describeEndpoint({ route, url, endpoint, config }: DevtoolsEndpointInput): McpDevtoolsEndpoint {
  const { registry } = endpoint
  const tools = registry.lists.tools.map(tool => ({
    name: tool.name,
    file: registry.tools.get(tool.name)?.file ?? '',
    description: tool.description,
    fields: Object.keys(tool.inputSchema.properties ?? {}),
    view: viewOf(tool._meta),
  }))
  const resources = [
    ...registry.lists.resources.map(resource => ({ name: resource.name, uri: resource.uri, description: resource.description, file: registry.resources.get(resource.uri)?.file ?? '' })),
    ...registry.lists.templates.map(template => ({ name: template.name, uri: template.uriTemplate, description: template.description, file: registry.templates.find(t => t.name === template.name)?.file ?? '' })),
  ]
  return {
    route,
    url,
    inspector: { link: inspectorLink(url), command: inspectorCommand(url) },
    ...describeInstall(url, config),
    server: { name: config.name, version: config.version },
    tools,
    // Views are served as resources too: listed there and, with the tools that show them, here.
    resources,
    prompts: registry.lists.prompts.map(prompt => ({
      name: prompt.name,
      file: registry.prompts.get(prompt.name)?.file ?? '',
      description: prompt.description,
      arguments: (prompt.arguments ?? []).map(argument => argument.name),
    })),
    views: resources.filter(resource => resource.uri.startsWith('ui://')).map(view => ({
      name: view.name,
      uri: view.uri,
      file: view.file,
      tools: tools.filter(tool => tool.view === view.uri).map(tool => tool.name),
    })),
    tasks: (endpoint.tasks?.list() ?? []).map(describeTask).reverse(),
  }
}

/**
 * Collects the DevTools tab's data: each endpoint's definitions, from the same precomputed lists
 * `tools/list` and friends answer with, and its tasks; and what the recorders heard.
 *
 * @example
 * ```ts
 * return collectDevtoolsData(mcpRoutes.map(route => ({ route, url: new URL(route, origin).href, endpoint: useMcpEndpointAt(route, config), config })))
 * ```
 */
export function collectDevtoolsData(endpoints: DevtoolsEndpointInput[]): McpDevtoolsData {
  return {
    endpoints: endpoints.map(describeEndpoint),
    calls: listCallRecords(),
    questions: listQuestionRecords(),
  }
}
