import { computed, defineComponent, h } from 'vue'
import type { PropType, VNode } from 'vue'
import type { McpFormField } from '../elicitation/fields'
import { inputTypeOf } from '../elicitation/values'
import type { McpFormValue } from '../elicitation/values'

/** Visible `*` (hidden from assistive tech, which reads `required` / the hidden text instead). */
function requiredMark(field: McpFormField, spoken = false): VNode[] {
  if (!field.required) return []
  const mark = h('span', { 'class': 'mcp-field__required', 'aria-hidden': 'true' }, ' *')
  return spoken ? [mark, h('span', { class: 'mcp-visually-hidden' }, ' (required)')] : [mark]
}

/**
 * One field of `<McpElicitationForm>`: label, control, hint and error, wired for assistive tech
 * (`for`/`id`, `aria-describedby`, `aria-invalid`, `required`).
 */
export default defineComponent({
  name: 'McpElicitationField',
  props: {
    field: { type: Object as PropType<McpFormField>, required: true },
    inputId: { type: String, required: true },
    modelValue: { type: [String, Boolean, Array] as PropType<McpFormValue>, default: undefined },
    error: { type: String, default: undefined },
    disabled: { type: Boolean, default: false },
  },
  emits: { 'update:modelValue': (value: McpFormValue) => value !== undefined },
  setup(props, { emit }) {
    const hintId = computed(() => `${props.inputId}-hint`)
    const errorId = computed(() => `${props.inputId}-error`)
    const describedBy = computed(() => [props.field.description ? hintId.value : '', props.error ? errorId.value : ''].filter(Boolean).join(' ') || undefined)
    const text = computed(() => typeof props.modelValue === 'string' ? props.modelValue : '')
    const list = computed(() => Array.isArray(props.modelValue) ? props.modelValue : [])

    const onText = (event: Event) => {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) emit('update:modelValue', event.target.value)
    }
    const onCheck = (event: Event) => {
      if (event.target instanceof HTMLInputElement) emit('update:modelValue', event.target.checked)
    }
    const onToggle = (value: string, event: Event) => {
      if (!(event.target instanceof HTMLInputElement)) return
      const rest = list.value.filter(item => item !== value)
      emit('update:modelValue', event.target.checked ? [...rest, value] : rest)
    }

    /** Attributes every single control shares. */
    const common = () => ({
      'id': props.inputId,
      'name': props.field.name,
      'disabled': props.disabled,
      'required': props.field.required,
      'aria-describedby': describedBy.value,
      'aria-invalid': props.error ? 'true' : undefined,
    })

    function control(field: McpFormField): VNode[] {
      const label = h('label', { for: props.inputId }, [field.label, ...requiredMark(field)])
      switch (field.kind) {
        case 'multiselect':
          return [h('fieldset', { 'id': props.inputId, 'tabindex': -1, 'aria-describedby': describedBy.value, 'aria-invalid': props.error ? 'true' : undefined }, [
            h('legend', [field.label, ...requiredMark(field, true)]),
            ...field.options.map(option => h('label', { key: option.value, class: 'mcp-field__choice' }, [
              h('input', { type: 'checkbox', name: field.name, value: option.value, checked: list.value.includes(option.value), disabled: props.disabled, onChange: (event: Event) => onToggle(option.value, event) }),
              ` ${option.label}`,
            ])),
          ])]
        case 'boolean':
          return [h('label', { class: 'mcp-field__choice', for: props.inputId }, [
            h('input', { ...common(), required: undefined, type: 'checkbox', checked: props.modelValue === true, onChange: onCheck }),
            ` ${field.label}`,
            ...requiredMark(field),
          ])]
        case 'select':
          // `selected` on the options, not `value` on the select: it survives SSR and hydration.
          return [label, h('select', { ...common(), onChange: onText }, [
            h('option', { value: '', disabled: field.required, selected: text.value === '' }, field.required ? 'Choose…' : '(none)'),
            ...field.options.map(option => h('option', { key: option.value, value: option.value, selected: option.value === text.value }, option.label)),
          ])]
        case 'number':
          return [label, h('input', {
            ...common(),
            type: 'number',
            value: text.value,
            min: field.minimum,
            max: field.maximum,
            step: field.integer ? 1 : 'any',
            inputmode: field.integer ? 'numeric' : 'decimal',
            onInput: onText,
          })]
        case 'text':
          return [label, h('input', { ...common(), type: inputTypeOf(field), value: text.value, minlength: field.minLength, maxlength: field.maxLength, onInput: onText })]
      }
    }

    return () => h('div', { class: ['mcp-field', `mcp-field--${props.field.kind}`, { 'mcp-field--invalid': Boolean(props.error) }] }, [
      ...control(props.field),
      props.field.description ? h('p', { id: hintId.value, class: 'mcp-field__hint' }, props.field.description) : null,
      props.error ? h('p', { id: errorId.value, class: 'mcp-field__error' }, props.error) : null,
    ])
  },
})
