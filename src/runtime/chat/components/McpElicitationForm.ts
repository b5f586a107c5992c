import { computed, defineComponent, h, nextTick, onMounted, onUnmounted, ref, useId, watch } from 'vue'
import type { PropType, VNode } from 'vue'
import McpElicitationField from './McpElicitationField'
import { readRequestedSchema } from '../elicitation/fields'
import { collectAnswer, initialValues } from '../elicitation/values'
import type { McpFormValue, McpFormValues } from '../elicitation/values'
import { describeUrlTarget } from '../elicitation/url'
import { describeDeadline } from '../elicitation/deadline'
import type { McpElicitationAnswer, McpElicitationRequest } from '../elicitation/types'

/**
 * `<McpElicitationForm>`: one MCP elicitation for the person in front of the page. A form built
 * from its `requestedSchema` (every primitive the spec allows: text, email/uri/date/date-time,
 * number/integer with bounds, checkbox, single, titled and multi select; defaults pre-filled,
 * required marks, validation messages) with Submit / Decline / Cancel; a yes/no question (one
 * boolean field, as `confirm()` asks) as two buttons; or, in URL mode, the target's host, the
 * link itself and a consent button, both opening it in a new tab. With `expiresAt` (the host's
 * timeout), the time left. Emits `respond` with the answer.
 *
 * @example
 * ```vue
 * <McpElicitationForm :request="part.data" :errors="errors[part.data.id]" @respond="answer => respond(part.data.id, answer)" />
 * ```
 */
export default defineComponent({
  name: 'McpElicitationForm',
  props: {
    /** A `data-mcp-elicitation` part's data, or any form / URL request. */
    request: { type: Object as PropType<McpElicitationRequest & { server?: string, expiresAt?: number }>, required: true },
    /** Messages per field from the host (its 400 answer), shown like the form's own. */
    errors: { type: Object as PropType<Record<string, string>>, default: undefined },
    /** Disables the buttons while an answer is being sent. */
    busy: { type: Boolean, default: false },
  },
  emits: { respond: (answer: McpElicitationAnswer) => typeof answer.action === 'string' },
  setup(props, { emit }) {
    const uid = useId()
    const root = ref<HTMLElement | null>(null)
    const read = computed(() => props.request.mode === 'form' ? readRequestedSchema(props.request.requestedSchema) : undefined)
    const fields = computed(() => read.value?.ok ? read.value.fields : [])
    const target = computed(() => props.request.mode === 'url' ? describeUrlTarget(props.request.url) : undefined)
    const values = ref<McpFormValues>(initialValues(fields.value))
    const localErrors = ref<Record<string, string>>({})
    // The host's messages show until the next local check; then the form's own take over.
    const showHostErrors = ref(true)
    const shownErrors = computed<Record<string, string>>(() => showHostErrors.value ? { ...props.errors } : localErrors.value)
    // A yes/no question: one boolean field and nothing else (what `confirm()` asks).
    const yesNo = computed(() => fields.value.length === 1 && fields.value[0]?.kind === 'boolean' ? fields.value[0] : undefined)
    // The clock starts in the browser: the server-rendered page shows the deadline as of render.
    const now = ref(Date.now())
    let clock: ReturnType<typeof setInterval> | undefined
    onMounted(() => { clock = setInterval(() => { now.value = Date.now() }, 1000) })
    onUnmounted(() => clearInterval(clock))
    const deadline = computed(() => describeDeadline(props.request.expiresAt, now.value))

    async function focusFirstInvalid(): Promise<void> {
      await nextTick()
      root.value?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
    }

    watch(fields, (next) => {
      values.value = initialValues(next)
      localErrors.value = {}
    })
    watch(() => props.errors, () => {
      showHostErrors.value = true
      if (props.errors && Object.keys(props.errors).length > 0) void focusFirstInvalid()
    })

    function submit(event: Event): void {
      event.preventDefault()
      showHostErrors.value = false
      const result = collectAnswer(fields.value, values.value)
      if (!result.ok) {
        localErrors.value = result.errors
        void focusFirstInvalid()
        return
      }
      localErrors.value = {}
      emit('respond', { action: 'accept', content: result.content })
    }

    function openTarget(): void {
      const current = target.value
      if (!current?.ok) return
      window.open(current.href, '_blank', 'noopener,noreferrer')
      emit('respond', { action: 'accept' })
    }

    /** The link itself opens the page too (in a new tab, by the browser): that is consent as well. */
    function followLink(event: MouseEvent): void {
      if (props.busy) {
        event.preventDefault()
        return
      }
      emit('respond', { action: 'accept' })
    }

    const button = (label: string, onClick?: () => void, primary = false) =>
      h('button', { type: onClick ? 'button' : 'submit', disabled: props.busy, class: primary ? 'mcp-elicitation__primary' : undefined, onClick }, label)
    const refuseButtons = () => [button('Decline', () => emit('respond', { action: 'decline' })), button('Cancel', () => emit('respond', { action: 'cancel' }))]
    const actions = (first: VNode) => h('div', { class: 'mcp-elicitation__actions' }, [first, ...refuseButtons()])

    function renderForm(): VNode {
      const count = Object.keys(shownErrors.value).length
      return h('form', { 'novalidate': true, 'aria-describedby': `${uid}-legend`, 'onSubmit': submit }, [
        h('p', { id: `${uid}-legend`, class: 'mcp-elicitation__legend' }, ['Fields marked ', h('span', { 'aria-hidden': 'true' }, '*'), h('span', { class: 'mcp-visually-hidden' }, 'with an asterisk'), ' are required.']),
        ...fields.value.map(field => h(McpElicitationField, {
          'key': field.name,
          field,
          'inputId': `${uid}-${field.name}`,
          'modelValue': values.value[field.name],
          'error': shownErrors.value[field.name],
          'disabled': props.busy,
          'onUpdate:modelValue': (value: McpFormValue) => { values.value = { ...values.value, [field.name]: value } },
        })),
        count > 0 ? h('p', { class: 'mcp-elicitation__summary', role: 'alert' }, `${count === 1 ? 'One field needs' : `${count} fields need`} your attention.`) : null,
        actions(button('Submit', undefined, true)),
      ])
    }

    function renderYesNo(name: string): VNode {
      return h('div', { class: 'mcp-elicitation__actions' }, [
        button('Yes', () => emit('respond', { action: 'accept', content: { [name]: true } }), true),
        button('No', () => emit('respond', { action: 'accept', content: { [name]: false } })),
      ])
    }

    function renderUrl(host: string, href: string, secure: boolean): VNode {
      return h('div', { class: 'mcp-elicitation__url' }, [
        h('p', ['This opens a page on ', h('strong', { 'class': 'mcp-elicitation__host', 'data-testid': 'mcp-url-host' }, host), ' in a new tab.']),
        // Only a target that passed the checks above (http(s), no credentials) is ever a link.
        h('p', { class: 'mcp-elicitation__href' }, [h('a', { href, target: '_blank', rel: 'noopener noreferrer', onClick: followLink }, [h('code', href)])]),
        secure ? null : h('p', { class: 'mcp-elicitation__warning', role: 'note' }, 'The link is not encrypted (http).'),
        actions(button(`Open ${host}`, openTarget, true)),
      ])
    }

    function renderBody(): VNode {
      if (read.value?.ok && yesNo.value) return renderYesNo(yesNo.value.name)
      if (read.value?.ok) return renderForm()
      if (target.value?.ok) return renderUrl(target.value.host, target.value.href, target.value.secure)
      const reason = read.value && !read.value.ok ? read.value.error : target.value && !target.value.ok ? target.value.reason : 'unknown request.'
      return h('div', { class: 'mcp-elicitation__unsupported' }, [
        h('p', { role: 'alert' }, `This request cannot be shown: ${reason}`),
        h('div', { class: 'mcp-elicitation__actions' }, refuseButtons()),
      ])
    }

    return () => h('section', { 'ref': root, 'class': 'mcp-elicitation', 'aria-labelledby': `${uid}-message`, 'data-mode': props.request.mode }, [
      props.request.server ? h('p', { class: 'mcp-elicitation__server' }, `${props.request.server} asks:`) : null,
      h('p', { id: `${uid}-message`, class: 'mcp-elicitation__message' }, props.request.message),
      renderBody(),
      deadline.value ? h('p', { 'class': ['mcp-elicitation__deadline', { 'mcp-elicitation__deadline--urgent': deadline.value.urgent }], 'role': 'timer', 'aria-live': deadline.value.urgent ? 'polite' : 'off' }, deadline.value.text) : null,
    ])
  },
})
