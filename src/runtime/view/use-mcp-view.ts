import { computed, markRaw, readonly, ref, shallowRef } from 'vue'
import type { ComputedRef, Ref, ShallowRef } from 'vue'
import { App, applyDocumentTheme, applyHostFonts, applyHostStyleVariables } from '@modelcontextprotocol/ext-apps'
import type { McpUiHostContext, McpUiMessageRequest, McpUiUpdateModelContextRequest } from '@modelcontextprotocol/ext-apps'
import type { CallToolResult } from '@modelcontextprotocol/client'
import type { McpUiAppCapabilities } from '@modelcontextprotocol/ext-apps'
import { answerQuestionsIn } from './view-question'
import type { McpViewQuestionState } from './view-question'

/** What `useMcpView()` gives a view: the host's state as refs, and what the view may ask of the host. */
export interface McpViewContext extends McpViewQuestionState {
  /** ext-apps' `App`, for what this layer does not wrap. Kept out of Vue's reactivity (see below). */
  app: App
  /** True once the host answered `ui/initialize`. */
  connected: Readonly<Ref<boolean>>
  /** The arguments of the tool call this view shows (`undefined` until the host sends them). */
  toolInput: Readonly<ShallowRef<Record<string, unknown> | undefined>>
  /** The result of that call (`undefined` while it runs). */
  toolResult: Readonly<ShallowRef<CallToolResult | undefined>>
  /** Theme, locale, display mode, safe area… as the host describes them. */
  hostContext: Readonly<ShallowRef<McpUiHostContext | undefined>>
  /** The result's `structuredContent` (@nuxtjs/mcp-toolkit's name). */
  data: ComputedRef<Record<string, unknown> | undefined>
  /** True until the tool result arrives (@nuxtjs/mcp-toolkit's name). */
  loading: ComputedRef<boolean>
  /** Calls a tool of this view's server, through the host. */
  callTool: (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>
  /** Adds a message to the conversation, as the person (text, or the full params). */
  sendMessage: (message: string | McpUiMessageRequest['params']) => Promise<void>
  /** The same as `sendMessage` (@nuxtjs/mcp-toolkit's name). */
  sendPrompt: (message: string) => Promise<void>
  /** Asks the host to open a URL (it may ask the person first). */
  openLink: (url: string) => Promise<void>
  /** Tells the model what the view shows now, for its next turn. */
  updateModelContext: (params: McpUiUpdateModelContextRequest['params']) => Promise<void>
}

let current: McpViewContext | undefined

/** A host's refusal (`isError`) as a thrown error, so `await` in a view fails loudly. */
function refused(what: string, result: { isError?: boolean }): void {
  if (result.isError) throw new Error(`The host refused ${what}.`)
}

/**
 * Creates the view's one `App` and connects it to the host (`window.parent`). Called once by the
 * generated entry of each view, before the component mounts, so that no tool input is missed.
 *
 * Why `markRaw` / `shallowRef` everywhere: the `App` holds its transport, which holds the parent
 * `Window`. A deep reactive proxy walks into that cross-origin `Window` and throws a
 * `SecurityError` in a real host (the official Vue example's in-app tool call fails that way).
 *
 * @example
 * ```ts
 * const context = connectMcpView({ name: 'weather', version: '1.0.0' })
 * ```
 */
export function connectMcpView(info: { name: string, version: string }): McpViewContext {
  if (current) return current
  // `elicitation` is SEP-3118's app capability (a draft, not yet in ext-apps' types): the host
  // sends this view the forms it should render only when the view declares it.
  const capabilities: McpUiAppCapabilities & { elicitation: Record<string, never> } = { elicitation: {} }
  const app = markRaw(new App(info, capabilities, { autoResize: true }))
  const connected = ref(false)
  const toolInput = shallowRef<Record<string, unknown>>()
  const toolResult = shallowRef<CallToolResult>()
  const hostContext = shallowRef<McpUiHostContext>()
  const applyContext = (context: McpUiHostContext | undefined) => {
    hostContext.value = context && { ...context }
    if (context?.theme) applyDocumentTheme(context.theme)
    if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables)
    if (context?.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts)
  }
  // Listeners before connect(): the host may send the tool input right after initialization.
  app.addEventListener('toolinput', (params) => { toolInput.value = params.arguments })
  app.addEventListener('toolresult', (params) => { toolResult.value = params })
  app.addEventListener('hostcontextchanged', () => applyContext(app.getHostContext()))
  const sendMessage = async (message: string | McpUiMessageRequest['params']) => {
    const params = typeof message === 'string' ? { role: 'user' as const, content: [{ type: 'text' as const, text: message }] } : message
    refused('the message', await app.sendMessage(params))
  }
  const context: McpViewContext = {
    app,
    ...answerQuestionsIn(app),
    connected: readonly(connected),
    toolInput,
    toolResult,
    hostContext,
    data: computed(() => {
      const structured = toolResult.value?.structuredContent
      return typeof structured === 'object' && structured !== null && !Array.isArray(structured) ? structured as Record<string, unknown> : undefined
    }),
    loading: computed(() => toolResult.value === undefined),
    callTool: (name, args) => app.callServerTool({ name, arguments: args ?? {} }),
    sendMessage,
    sendPrompt: message => sendMessage(message),
    openLink: async url => refused(`to open ${url}`, await app.openLink({ url })),
    updateModelContext: async (params) => { await app.updateModelContext(params) },
  }
  current = context
  app.connect().then(() => {
    connected.value = true
    applyContext(app.getHostContext())
  }, (error: unknown) => console.error('[nuxt-mcp-elicitation] The view could not connect to its host:', error))
  return context
}

/**
 * The view's link to the host that shows it: tool input and result, host context, and calls to
 * the server. Auto-imported in `app/mcp/*.vue`.
 *
 * @example
 * ```vue
 * <script setup lang="ts">
 * const { toolResult, callTool } = useMcpView()
 * const refresh = () => callTool('weather', { city: 'Paris' })
 * </script>
 * <template><pre>{{ toolResult?.structuredContent }}</pre><button @click="refresh">Refresh</button></template>
 * ```
 */
export function useMcpView(): McpViewContext {
  if (!current) throw new Error('[nuxt-mcp-elicitation] useMcpView() works only inside an MCP App view (app/mcp/*.vue), which the module builds and connects to its host.')
  return current
}
