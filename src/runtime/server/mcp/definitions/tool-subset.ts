import { toList } from '../../common/config'
import type { McpRequestScope, McpToolSubset } from '../../common/context'
import { mayUse } from './guards'
import type { McpRegistry, RegisteredTool } from './registry'

/**
 * A client's (or an endpoint's) choice of tools: @nuxtjs/mcp-toolkit's `X-MCP-Tools` syntax,
 * unchanged (comma-separated tool names, each trimmed, empty entries dropped), and two entry kinds
 * of our own that its names cannot collide with (MCP's naming rules keep `:` out of a tool name):
 * `group:<group>` and `tag:<tag>`, plus `*` for every tool. It is a view, never an authorization
 * boundary: guards (`scopes`, `enabled`) still decide what a caller may use at all.
 */

/** The request header a client narrows the tool list with (as @nuxtjs/mcp-toolkit reads it). */
export const TOOLS_HEADER = 'X-MCP-Tools'

/** The longest `X-MCP-Tools` value accepted: a list of names, not a document (4 KiB). */
export const MAX_TOOLS_HEADER_LENGTH = 4096

/**
 * One entry of a subset: a tool's name, every tool of a group or with a tag, or every tool (`*`).
 *
 * @example
 * ```ts
 * const entry: ToolSubsetEntry = { kind: 'group', value: 'docs', written: 'group:docs' }
 * ```
 */
export type ToolSubsetEntry = { kind: 'name' | 'group' | 'tag', value: string, written: string } | { kind: 'all', written: '*' }

/**
 * A subset as written, parsed; or why it cannot be read.
 *
 * @example
 * ```ts
 * const parsed: ParsedToolSubset = parseToolSubset('search, tag:read-only')
 * if (!parsed.ok) console.warn(parsed.problem)
 * ```
 */
export type ParsedToolSubset = { ok: true, entries: ToolSubsetEntry[] } | { ok: false, problem: string }

// Printable ASCII and tab: what a header value may carry as text. Anything else (a control
// character, a byte above 0x7E from a mangled config) is refused, not guessed at.
const PRINTABLE = /^[\t\x20-\x7E]*$/

/** How the first problem of `value` is shown: the value itself, cut to a readable length. */
function shown(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)
}

function entryOf(written: string): ToolSubsetEntry {
  if (written === '*') return { kind: 'all', written }
  const prefix = /^(group|tag):(.+)$/.exec(written)
  if (prefix?.[1] === 'group' || prefix?.[1] === 'tag') return { kind: prefix[1], value: prefix[2]!.trim(), written }
  return { kind: 'name', value: written, written }
}

/**
 * Reads a subset written in `X-MCP-Tools` syntax: a string (the header, or a config string such
 * as `NUXT_MCP_TOOLS`) or an array of entries (nuxt.config). An empty value is an empty subset (no
 * tool but the module's companions), as in @nuxtjs/mcp-toolkit. Refused: a value longer than
 * {@link MAX_TOOLS_HEADER_LENGTH}, or one with characters outside printable ASCII.
 *
 * @example
 * ```ts
 * parseToolSubset('search, group:docs , tag:read-only,')
 * // { ok: true, entries: [{ kind: 'name', value: 'search', … }, { kind: 'group', value: 'docs', … }, { kind: 'tag', value: 'read-only', … }] }
 * parseToolSubset('a\u0000b') // { ok: false, problem: 'it holds a character outside printable ASCII …' }
 * ```
 */
export function parseToolSubset(value: string | readonly string[]): ParsedToolSubset {
  const text = typeof value === 'string' ? value : value.join(',')
  if (text.length > MAX_TOOLS_HEADER_LENGTH) return { ok: false, problem: `it is ${text.length} characters long, over the ${MAX_TOOLS_HEADER_LENGTH} accepted (${shown(text)}): name fewer tools, or a group (group:<name>) or tag (tag:<name>) that holds them` }
  if (!PRINTABLE.test(text)) return { ok: false, problem: `it holds a character outside printable ASCII (${shown(text)}): write tool names, group:<name> and tag:<name>, separated by commas` }
  return { ok: true, entries: toList(text).map(entryOf) }
}

/** Whether `tool` is one `entry` names. */
function matches(entry: ToolSubsetEntry, tool: RegisteredTool): boolean {
  switch (entry.kind) {
    case 'all': return true
    case 'name': return tool.name === entry.value
    case 'group': return tool.group === entry.value
    case 'tag': return tool.tags.includes(entry.value)
  }
}

/**
 * The names of `tools` that `entries` choose, the module's companion tools always among them (a
 * subset narrows the app's tools, never the module's way round a client's missing capability),
 * and the entries that chose nothing: unknown names, groups and tags. An entry is read as a
 * tool's name first, so a tool literally named `group:x` is still chosen by its name. A tool only
 * a view may call (`visibility: ['app']`) goes with the tools that show its view: the view calls
 * it through the same connection, with the same header.
 *
 * @example
 * ```ts
 * const parsed = parseToolSubset('search, group:docs')
 * if (parsed.ok) chooseTools([...registry.tools.values()], parsed.entries) // { names: Set { 'search', 'read-page' }, unknown: [] }
 * ```
 */
export function chooseTools(tools: readonly RegisteredTool[], entries: readonly ToolSubsetEntry[]): { names: Set<string>, unknown: string[] } {
  const names = new Set(tools.filter(tool => tool.companion).map(tool => tool.name))
  const unknown: string[] = []
  const byName = new Map(tools.map(tool => [tool.name, tool]))
  for (const entry of entries) {
    const named = byName.get(entry.written)
    const chosen = named ? [named] : tools.filter(tool => matches(entry, tool))
    if (chosen.length === 0) unknown.push(entry.written)
    for (const tool of chosen) names.add(tool.name)
  }
  const shown = new Set(tools.filter(tool => names.has(tool.name) && tool.view).map(tool => tool.view?.name))
  for (const tool of tools) if (tool.view?.appOnly && shown.has(tool.view.name)) names.add(tool.name)
  return { names, unknown }
}

/**
 * The subset an endpoint's own config asks for (`mcp.tools`, `mcp.endpoints.<key>.tools`),
 * resolved once against its tools; `undefined` for every tool (`'*'`, the default, or unset). A value that
 * cannot be read, or entries that name nothing, are said in the log, naming the option, and
 * left out: the endpoint keeps serving what the rest names.
 *
 * @example
 * ```ts
 * const endpointSubset = endpointToolSubset(registry, config.tools, 'mcp.endpoints.docs.tools')
 * ```
 */
export function endpointToolSubset(registry: McpRegistry, value: string | readonly string[] | undefined, option: string): McpToolSubset | undefined {
  if (value === undefined) return undefined
  const parsed = parseToolSubset(value)
  if (!parsed.ok) {
    console.error(`[nuxt-mcp-elicitation] ${option} cannot be read: ${parsed.problem}. Every tool is served until it is fixed.`)
    return undefined
  }
  if (parsed.entries.some(entry => entry.kind === 'all')) return undefined
  const { names, unknown } = chooseTools([...registry.tools.values()], parsed.entries)
  if (unknown.length > 0) console.warn(`[nuxt-mcp-elicitation] ${option} names no tool, group or tag called ${unknown.map(entry => `"${entry}"`).join(', ')}: left out. The tools are ${[...registry.tools.keys()].map(name => `"${name}"`).join(', ') || '(none)'}.`)
  return { names, source: option }
}

/**
 * The subset a request's `X-MCP-Tools` header asks for, within what the endpoint serves
 * (`endpoint`) and what this caller may use (its guards): `undefined` without the header, else the
 * subset, or a refusal naming the header, its value and the fix. As in @nuxtjs/mcp-toolkit an
 * entry that names nothing this caller could list is refused: a name a guard hides is as unknown
 * as one that does not exist, so the refusal tells nothing a list would not.
 *
 * @example
 * ```ts
 * const asked = await requestToolSubset(registry, endpointSubset, event.node.req.headers['x-mcp-tools'], scope)
 * if (asked && !asked.ok) return jsonRpcError(400, -32602, asked.problem)
 * ```
 */
export async function requestToolSubset(registry: McpRegistry, endpoint: McpToolSubset | undefined, header: string | string[] | undefined, scope: McpRequestScope): Promise<{ ok: true, subset: McpToolSubset } | { ok: false, problem: string } | undefined> {
  if (header === undefined) return undefined
  const value = typeof header === 'string' ? header : header.join(', ')
  const parsed = parseToolSubset(value)
  if (!parsed.ok) return { ok: false, problem: `The ${TOOLS_HEADER} header cannot be read: ${parsed.problem}.` }
  const served = [...registry.tools.values()].filter(tool => !endpoint || endpoint.names.has(tool.name))
  // Guards run only for the tools the header could choose (an entry names them, or they go with
  // what it chooses): a tools/call with the header pays for those, not for every tool.
  const mayChoose = (tool: RegisteredTool) => tool.companion || tool.view?.appOnly === true || parsed.entries.some(entry => entry.written === tool.name || matches(entry, tool))
  const visible = registry.guarded ? await Promise.all(served.map(tool => !mayChoose(tool) || mayUse(tool.definition, scope, tool.name))) : undefined
  const { names, unknown } = chooseTools(visible ? served.filter((_, index) => visible[index]) : served, parsed.entries)
  if (unknown.length > 0) {
    const plural = unknown.length > 1 ? 's' : ''
    return { ok: false, problem: `Unknown MCP tool${plural}: ${unknown.join(', ')}. The ${TOOLS_HEADER} header (${shown(value)}) names ${unknown.length > 1 ? 'them' : 'it'}, but no tool${plural}, group or tag here ${unknown.length > 1 ? 'are' : 'is'} called so: send names as tools/list gives them, group:<name> or tag:<name>, or leave the header out for every tool.` }
  }
  return { ok: true, subset: { names, source: `the ${TOOLS_HEADER} header (${shown(value)})` } }
}

/**
 * Why `tools/call` refuses a tool that exists but lies outside the request's subset: names the
 * tool, where the subset comes from, and how to include it.
 *
 * @example
 * ```ts
 * outsideSubset('deploy', subset) // 'The tool "deploy" is outside the tools chosen by the X-MCP-Tools header ("search"): …'
 * ```
 */
export function outsideSubset(name: string, subset: McpToolSubset): string {
  const fix = subset.source.startsWith(`the ${TOOLS_HEADER} header`)
    ? `add "${name}" (or its group:<name> or tag:<name>) to the ${TOOLS_HEADER} header, or leave the header out`
    : `add "${name}" to ${subset.source}`
  return `The tool "${name}" is outside the tools chosen by ${subset.source}: ${fix} to call it.`
}
