import type { McpFormField } from '../../chat/elicitation/fields'
import { inputTypeOf } from '../../chat/elicitation/values'
import type { McpFormValue } from '../../chat/elicitation/values'
import { attributes, escapeHtml } from './html'
import { pageFieldId, pageFieldName } from './names'

/**
 * One field of the question page as HTML, the way `<McpElicitationField>` draws it in the chat
 * (label, control, hint, error, wired for assistive tech), without script: the browser checks
 * what HTML can say (required, lengths, bounds, email/url/date inputs) and the server checks it
 * all again (answers.ts).
 */

/**
 * Where a field stands on the page: its position, what it shows, and why it was refused.
 *
 * @example
 * ```ts
 * const state: PageFieldState = { question: 0, index: 1, value: true }
 * ```
 */
export interface PageFieldState {
  question: number
  index: number
  value: McpFormValue | undefined
  error?: string
}

function requiredMark(field: McpFormField): string {
  return field.required ? '<span class="required" aria-hidden="true"> *</span><span class="visually-hidden"> (required)</span>' : ''
}

function describedBy(field: McpFormField, id: string, error: string | undefined): string | undefined {
  return [field.description ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined
}

function textOf(value: McpFormValue | undefined): string {
  return typeof value === 'string' ? value : Array.isArray(value) ? value[0] ?? '' : ''
}

function listOf(value: McpFormValue | undefined): string[] {
  return Array.isArray(value) ? value : typeof value === 'string' && value !== '' ? [value] : []
}

function control(field: McpFormField, state: PageFieldState): string {
  const id = pageFieldId(state.question, state.index)
  const name = pageFieldName(state.question, state.index)
  const aria = { 'aria-describedby': describedBy(field, id, state.error), 'aria-invalid': state.error ? 'true' : undefined }
  const label = `<label for="${id}">${escapeHtml(field.label)}${requiredMark(field)}</label>`
  switch (field.kind) {
    case 'boolean':
      // Never `required`: a required checkbox can only be ticked, and `confirm()` must be able to
      // say no. Unticked sends nothing, which the server reads as `false`.
      return `<label class="choice" for="${id}"><input${attributes({ type: 'checkbox', id, name, value: 'true', checked: state.value === true, ...aria })}> ${escapeHtml(field.label)}</label>`
    case 'multiselect': {
      const chosen = listOf(state.value)
      const boxes = field.options.map((option, index) =>
        `<label class="choice"><input${attributes({ type: 'checkbox', id: `${id}-${index}`, name, value: option.value, checked: chosen.includes(option.value) })}> ${escapeHtml(option.label)}</label>`)
      return `<fieldset${attributes({ id, ...aria })}><legend>${escapeHtml(field.label)}${requiredMark(field)}</legend>${boxes.join('')}</fieldset>`
    }
    case 'select': {
      const current = textOf(state.value)
      const placeholder = `<option${attributes({ value: '', disabled: field.required, selected: current === '' })}>${field.required ? 'Choose…' : '(none)'}</option>`
      const options = field.options.map(option => `<option${attributes({ value: option.value, selected: option.value === current })}>${escapeHtml(option.label)}</option>`)
      return `${label}<select${attributes({ id, name, required: field.required, ...aria })}>${placeholder}${options.join('')}</select>`
    }
    case 'number':
      return `${label}<input${attributes({ type: 'number', id, name, value: textOf(state.value), required: field.required, min: field.minimum, max: field.maximum, step: field.integer ? 1 : 'any', inputmode: field.integer ? 'numeric' : 'decimal', ...aria })}>`
    case 'text':
      return `${label}<input${attributes({ type: inputTypeOf(field), id, name, value: textOf(state.value), required: field.required, minlength: field.minLength, maxlength: field.maxLength, ...aria })}>`
  }
}

/**
 * One field as HTML: control, hint (the schema's `description`), the server's message when the
 * last submission was refused, and for a date-time, the zone its value is read in.
 *
 * @example
 * ```ts
 * renderField({ name: 'email', label: 'Email', required: true, kind: 'text', format: 'email' }, { question: 0, index: 0, value: 'ada@' , error: 'Enter a valid email address, like name@example.com.' })
 * ```
 */
export function renderField(field: McpFormField, state: PageFieldState): string {
  const id = pageFieldId(state.question, state.index)
  // The page has no script, so it cannot know the person's zone: the value is read as UTC, and says so.
  const zone = field.kind === 'text' && field.format === 'date-time' ? '<p class="hint">Time in UTC (Coordinated Universal Time).</p>' : ''
  const hint = field.description ? `<p class="hint" id="${id}-hint">${escapeHtml(field.description)}</p>` : ''
  const error = state.error ? `<p class="error" id="${id}-error">${escapeHtml(state.error)}</p>` : ''
  return `<div class="field field--${field.kind}">${control(field, state)}${zone}${hint}${error}</div>`
}
