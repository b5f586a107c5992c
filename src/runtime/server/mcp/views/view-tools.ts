import type { McpUiToolMeta } from '@modelcontextprotocol/ext-apps'
import type { McpToolDefinition, McpToolInput, McpToolOutput } from '../definitions/definitions'
import type { DefinitionEntry, ErasedTool } from '../definitions/registry'
import { isRecord } from '../../common/is-record'

/** A tool a view declares, as the build lists it (`#mcp-elicitation/views`). */
export type ViewToolEntry = DefinitionEntry<ErasedTool>

/** What `defineMcpApp({ … })` in a view may declare of its tool: a tool definition, shown by that view. */
export type McpViewToolDefinition<I extends McpToolInput, O extends McpToolOutput | undefined> = Omit<McpToolDefinition<I, O>, 'app'> & {
  /** Who may call the tool: `['model', 'app']` (the default), or `['app']` for one only the view calls. */
  visibility?: McpUiToolMeta['visibility']
}

/**
 * What a handler of a view's tool returned, as a result: a plain object (no `content`) becomes
 * `structuredContent` as well as its JSON text, so that the view's `data` is that object, as in
 * @nuxtjs/mcp-toolkit. With an `outputSchema` the object is checked by it the usual way.
 */
function withStructuredContent(value: unknown, hasOutputSchema: boolean): unknown {
  if (hasOutputSchema || !isRecord(value) || Array.isArray(value.content)) return value
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value }
}

/**
 * The tool a view declares in its `defineMcpApp({ description, inputSchema, handler })`
 * (@nuxtjs/mcp-toolkit's way), as an ordinary tool shown by that view. The build writes one
 * module per such view that calls this; it is not meant to be called by hand.
 *
 * @example
 * ```ts
 * export default defineMcpViewTool('weather', { description: 'Weather', inputSchema: { city: z.string() }, handler: ({ city }) => ({ city, celsius: 21 }) })
 * ```
 */
export function defineMcpViewTool<I extends McpToolInput = Record<string, never>, O extends McpToolOutput | undefined = undefined>(view: string, definition: McpViewToolDefinition<I, O>): ErasedTool {
  const { visibility, handler, ...tool } = definition
  const erased: ErasedTool = {
    ...tool,
    app: visibility ? { name: view, visibility } : view,
    // The registry checks `args` against `inputSchema` before it calls: the cast names that type.
    handler: async (args, context) => withStructuredContent(await handler(args as Parameters<typeof handler>[0], context), tool.outputSchema !== undefined),
  }
  return erased
}
