import { computed, defineComponent, h, markRaw, onMounted, onUnmounted, ref, watch } from 'vue'
import type { PropType } from 'vue'
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { McpUiMessageRequest } from '@modelcontextprotocol/ext-apps'
import { isCallToolResult, specTypeSchemas } from '@modelcontextprotocol/client'
import { MCP_ELICITATION_HEADER } from '../elicitation/types'
import type { McpElicitationAnswer } from '../elicitation/types'
import type { McpViewPartData } from '../elicitation/view-part'
import { postViewToolCall } from '../elicitation/view-calls'
import { useMcpHostUrlCheck } from '../composables/useMcpHostUrlCheck'

/**
 * `<McpViewFrame>`: an MCP App view in the page, as the spec's double iframe: a sandbox proxy on
 * an origin of its own (`view.shown.sandboxUrl`), the view inside it in a frame with no origin at
 * all and its resource's CSP. ext-apps' `AppBridge` talks to it: the tool's input and result go in,
 * the view's own tool calls go to the host (`view.shown.callUrl`), links open in a new tab, messages for
 * the chat come out as `message` events. Without a sandbox origin it shows no view, and says why;
 * nor when `sandboxUrl` is not this host's sandbox page for this page, or `callUrl` not its call
 * route (message data may come from a stored or shared conversation): it names the field instead.
 *
 * The bridge and the frame's window are kept out of Vue's reactivity (`markRaw`): a deep proxy
 * would touch a cross-origin `Window`.
 *
 * @example
 * ```vue
 * <McpViewFrame :view="part.data" :input="toolPart.input" :output="toolPart.output" @message="text => send(text)" />
 * ```
 */
export default defineComponent({
  name: 'McpViewFrame',
  props: {
    /** A `data-mcp-view` part's data. */
    view: { type: Object as PropType<McpViewPartData>, required: true },
    /** The tool call's arguments. */
    input: { type: Object as PropType<Record<string, unknown>>, default: undefined },
    /** The tool call's result, once it is there. */
    output: { type: Object as PropType<Record<string, unknown>>, default: undefined },
    /**
     * A form for the view to render instead (app-rendered elicitation, SEP-3118): sent to it as
     * `elicitation/create` once it is ready; its answer comes out as `respond`, and `fallback`
     * says to show the plain form instead (the view cannot, or failed).
     */
    question: { type: Object as PropType<{ message: string, requestedSchema: unknown }>, default: undefined },
  },
  emits: {
    message: (params: McpUiMessageRequest['params']) => typeof params === 'object',
    respond: (answer: McpElicitationAnswer) => typeof answer.action === 'string',
    fallback: () => true,
  },
  setup(props, { emit }) {
    const frame = ref<HTMLIFrameElement | null>(null)
    const refuseUrl = useMcpHostUrlCheck()
    /** Why this part's URLs are not the host's: nothing is framed, so nothing is called either. */
    const refusal = computed(() => {
      const shown = props.view.shown
      if (!shown) return undefined
      return refuseUrl('sandboxUrl', shown.sandboxUrl) ?? (shown.callUrl === undefined ? undefined : refuseUrl('callUrl', shown.callUrl))
    })
    const height = ref(160)
    let bridge: AppBridge | undefined
    let ready = false

    // Plain copies: a chat's messages are reactive, and postMessage cannot clone a Vue proxy.
    const plain = (value: unknown): unknown => value === undefined ? undefined : JSON.parse(JSON.stringify(value))
    const sendResult = () => {
      const output = plain(props.output)
      if (bridge && ready && isCallToolResult(output)) void bridge.sendToolResult(output)
    }
    watch(() => props.output, sendResult)

    /**
     * The view's `appCapabilities` as it sent them: ext-apps 2.0.4's bridge keeps only the keys it
     * knows, and `elicitation` (SEP-3118) is not one of them yet.
     */
    let declared: unknown
    /** Sends the form to the view and passes its answer on; anything else means the plain form. */
    async function askInView(created: AppBridge): Promise<void> {
      const capabilities = declared
      if (!props.question || typeof capabilities !== 'object' || capabilities === null || !('elicitation' in capabilities)) return void emit('fallback')
      try {
        const params = plain({ message: props.question.message, requestedSchema: props.question.requestedSchema, _meta: { ui: { resourceUri: props.view.uri } } })
        const answer = await created.request({ method: 'elicitation/create', params: typeof params === 'object' && params !== null ? { ...params } : {} }, specTypeSchemas.ElicitResult, { timeout: 10 * 60_000 })
        emit('respond', answer.action === 'accept' ? { action: 'accept', content: answer.content ?? {} } : { action: answer.action })
      }
      catch {
        emit('fallback')
      }
    }

    onMounted(() => {
      const target = frame.value?.contentWindow
      const shown = props.view.shown
      if (!target || !shown || refusal.value) return
      const created = markRaw(new AppBridge(null, { name: 'nuxt-mcp-elicitation host', version: '1.0.0' }, { openLinks: {}, serverTools: {}, message: { text: {} } }))
      bridge = created
      created.onsandboxready = () => {
        const meta = shown.meta && JSON.parse(JSON.stringify(shown.meta))
        void created.sendSandboxResourceReady({ html: shown.html, ...(meta?.csp && { csp: meta.csp }), ...(meta?.permissions && { permissions: meta.permissions }) })
      }
      created.oninitialized = () => {
        ready = true
        if (props.question) return void askInView(created)
        const input = plain(props.input)
        void created.sendToolInput({ arguments: typeof input === 'object' && input !== null ? { ...input } : {} })
        sendResult()
      }
      created.onsizechange = ({ height: next }) => {
        if (typeof next === 'number' && next > 0) height.value = Math.min(next, 2000)
      }
      const callUrl = shown.callUrl
      created.oncalltool = params => callUrl ? postViewToolCall(callUrl, MCP_ELICITATION_HEADER, params.name, params.arguments ?? {}) : Promise.reject(new Error(`This view renders a form here: it may not call "${params.name}".`))
      // Only web links, each in a new tab with no way back to this page.
      created.onopenlink = async ({ url }) => {
        if (!/^https?:\/\//i.test(url)) return { isError: true }
        window.open(url, '_blank', 'noopener,noreferrer')
        return {}
      }
      created.onmessage = async (params) => {
        emit('message', params)
        return {}
      }
      const transport = markRaw(new PostMessageTransport(target, target))
      // connect() hands the transport its listener before its first await: wrap it right away,
      // to read `ui/initialize` on its way to the bridge, for what the bridge drops (above).
      const connecting = created.connect(transport)
      const deliver = transport.onmessage
      transport.onmessage = (message, extra) => {
        if ('method' in message && message.method === 'ui/initialize' && typeof message.params === 'object' && message.params !== null) declared = message.params.appCapabilities
        deliver?.(message, extra)
      }
      void connecting
    })
    onUnmounted(() => {
      void bridge?.close()
    })

    return () => props.view.shown && refusal.value
      ? h('p', { 'class': 'mcp-view-frame__off', 'role': 'alert', 'data-testid': 'mcp-view-refused' }, `${props.view.toolName}'s view (${props.view.uri}) is not shown. ${refusal.value}`)
      : props.view.shown
      ? h('iframe', {
          'ref': frame,
          'src': props.view.shown.sandboxUrl,
          'title': `${props.view.toolName}: ${props.view.uri}`,
          'sandbox': 'allow-scripts allow-same-origin allow-forms',
          'class': ['mcp-view-frame', { 'mcp-view-frame--border': props.view.shown.meta?.prefersBorder !== false }],
          'style': { height: `${height.value}px` },
          'data-testid': 'mcp-view-frame',
        })
      : h('p', { 'class': 'mcp-view-frame__off', 'role': 'note', 'data-testid': 'mcp-view-off' }, `${props.view.toolName} has a view (${props.view.uri}), but this host has no sandbox origin for views, so it is not shown here (a view never runs on the app's own origin): set mcp.host.apps.sandboxOrigin.`)
  },
})
