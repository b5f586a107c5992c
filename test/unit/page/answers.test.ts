import { describe, expect, it } from 'vitest'
import { readPageAnswers } from '../../../src/runtime/server/page/answers'
import type { McpPageQuestion } from '../../../src/runtime/server/page/render'

// The page's POST read back into one answer per question, checked as the host's native form
// checks (the same conversions and messages): a POST may come from anywhere.

function form(properties: Record<string, unknown>, required: string[] = [], key = 'k'): McpPageQuestion {
  return { key, mode: 'form', message: 'Tell us', requestedSchema: { type: 'object', properties, required } }
}

const post = (pairs: [string, string][]) => new URLSearchParams(pairs)

describe('readPageAnswers', () => {
  const profile = form({
    name: { type: 'string', minLength: 2 },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', minimum: 13 },
    ratio: { type: 'number' },
    news: { type: 'boolean', default: true },
    plan: { type: 'string', enum: ['free', 'pro'] },
    os: { type: 'array', items: { type: 'string', enum: ['linux', 'macos', 'windows'] } },
    at: { type: 'string', format: 'date-time' },
    day: { type: 'string', format: 'date' },
  }, ['name', 'email'])

  it('reads every kind: text, email, integer, number, checkbox, select, multi-select, date-time (UTC), date', () => {
    const read = readPageAnswers([profile], post([
      ['_csrf', 'tok'], ['_action', 'accept'],
      ['q0.f0', 'Ada'], ['q0.f1', 'ada@example.com'], ['q0.f2', '36'], ['q0.f3', '0.25'], ['q0.f4', 'true'],
      ['q0.f5', 'pro'], ['q0.f6', 'linux'], ['q0.f6', 'windows'], ['q0.f7', '2026-03-01T09:30'], ['q0.f8', '2026-02-28'],
    ]))
    expect(read).toEqual({ ok: true, responses: { k: { action: 'accept', content: {
      name: 'Ada', email: 'ada@example.com', age: 36, ratio: 0.25, news: true, plan: 'pro', os: ['linux', 'windows'], at: '2026-03-01T09:30:00.000Z', day: '2026-02-28',
    } } } })
  })

  it('reads an unticked checkbox (sent as nothing) as false, whatever its default, and leaves empty optional fields out', () => {
    const read = readPageAnswers([profile], post([['_action', 'accept'], ['q0.f0', 'Ada'], ['q0.f1', 'ada@example.com'], ['q0.f2', ''], ['q0.f5', '']]))
    expect(read).toEqual({ ok: true, responses: { k: { action: 'accept', content: { name: 'Ada', email: 'ada@example.com', news: false } } } })
  })

  it('answers confirm()\'s required boolean with false when the box is left unticked', () => {
    const confirm = form({ confirm: { type: 'boolean', title: 'Deploy to prod?' } }, ['confirm'])
    expect(readPageAnswers([confirm], post([['_action', 'accept']]))).toEqual({ ok: true, responses: { k: { action: 'accept', content: { confirm: false } } } })
    expect(readPageAnswers([confirm], post([['_action', 'accept'], ['q0.f0', 'true']]))).toEqual({ ok: true, responses: { k: { action: 'accept', content: { confirm: true } } } })
    expect(readPageAnswers([confirm], post([['_action', 'accept'], ['q0.f0', 'false']]))).toEqual({ ok: true, responses: { k: { action: 'accept', content: { confirm: false } } } })
    expect(readPageAnswers([confirm], post([['_action', 'accept'], ['q0.f0', 'yes']]))).toMatchObject({ ok: false, errors: { k: { confirm: 'Expected true or false.' } } })
  })

  it('refuses with the native form\'s messages, per field, and gives back what was sent', () => {
    const read = readPageAnswers([profile], post([
      ['_action', 'accept'], ['q0.f0', 'A'], ['q0.f2', '12.5'], ['q0.f3', 'abc'], ['q0.f5', 'gold'], ['q0.f6', 'linux'], ['q0.f6', 'beos'], ['q0.f7', 'soon'], ['q0.f8', '2026-02-30'],
    ]))
    expect(read).toEqual({
      ok: false,
      errors: { k: {
        name: 'Enter at least 2 characters.',
        email: 'This field is required.',
        age: 'Enter a whole number.',
        ratio: 'Enter a number.',
        plan: 'Choose one of the listed options.',
        os: 'Choose only from the listed options.',
        at: 'Enter a valid date and time.',
        day: 'Enter a valid date (YYYY-MM-DD).',
      } },
      values: { k: { name: 'A', age: '12.5', ratio: 'abc', plan: 'gold', os: ['linux', 'beos'], at: 'soon', day: '2026-02-30' } },
    })
  })

  it('refuses numbers out of bounds and a required field left blank', () => {
    const read = readPageAnswers([profile], post([['_action', 'accept'], ['q0.f0', '   '], ['q0.f1', 'ada@example.com'], ['q0.f2', '7'], ['q0.f3', 'Infinity']]))
    expect(read).toMatchObject({ ok: false, errors: { k: { name: 'This field is required.', age: 'Enter a number of at least 13.', ratio: 'Enter a number.' } } })
  })

  it('refuses two values for a one-value field, and a multi-select that repeats an option', () => {
    const read = readPageAnswers([profile], post([['_action', 'accept'], ['q0.f0', 'Ada'], ['q0.f0', 'Bob'], ['q0.f1', 'ada@example.com'], ['q0.f6', 'linux'], ['q0.f6', 'linux']]))
    expect(read).toMatchObject({ ok: false, errors: { k: { name: 'Send one value for this field.', os: 'Choose each option at most once.' } } })
  })

  it('declines every question on the page with _action=decline, whatever the fields hold', () => {
    const url: McpPageQuestion = { key: 'u', mode: 'url', message: 'Connect', url: 'https://auth.example.com/' }
    expect(readPageAnswers([profile, url], post([['_action', 'decline'], ['q0.f0', '']]))).toEqual({ ok: true, responses: { k: { action: 'decline' }, u: { action: 'decline' } } })
  })

  it('accepts a URL question without content', () => {
    const url: McpPageQuestion = { key: 'u', mode: 'url', message: 'Connect', url: 'https://auth.example.com/' }
    expect(readPageAnswers([url], post([['_action', 'accept']]))).toEqual({ ok: true, responses: { u: { action: 'accept' } } })
  })

  it('reads a form sent without its button as accept, and refuses an unknown action', () => {
    const name = form({ name: { type: 'string' } })
    expect(readPageAnswers([name], post([['q0.f0', 'Ada']]))).toEqual({ ok: true, responses: { k: { action: 'accept', content: { name: 'Ada' } } } })
    expect(readPageAnswers([name], post([['_action', 'cancel'], ['q0.f0', 'Ada']]))).toEqual({
      ok: false,
      errors: { k: { '': 'Unknown _action "cancel": send accept or decline.' } },
      values: { k: { name: 'Ada' } },
    })
  })

  it('ignores fields the page does not have (the CSRF token, extras, a question that is not there)', () => {
    const name = form({ name: { type: 'string' } })
    const read = readPageAnswers([name], post([['_action', 'accept'], ['_csrf', 'tok'], ['q0.f0', 'Ada'], ['q0.f1', 'extra'], ['q7.f0', 'x'], ['name', 'Eve'], ['__proto__', 'x']]))
    expect(read).toEqual({ ok: true, responses: { k: { action: 'accept', content: { name: 'Ada' } } } })
  })

  it('keeps a question key and a field name like __proto__ as plain keys', () => {
    const odd: McpPageQuestion = { key: '__proto__', mode: 'form', message: 'x', requestedSchema: JSON.parse('{ "type": "object", "properties": { "__proto__": { "type": "string", "minLength": 2 }, "constructor": { "type": "boolean" } } }') }
    const read = readPageAnswers([odd], post([['_action', 'accept'], ['q0.f0', 'ok'], ['q0.f1', 'true']]))
    expect(read.ok && JSON.stringify(read.responses)).toBe('{"__proto__":{"action":"accept","content":{"__proto__":"ok","constructor":true}}}')
    const refused = readPageAnswers([odd], post([['_action', 'accept'], ['q0.f0', 'x']]))
    expect(!refused.ok && JSON.stringify(refused.errors)).toBe('{"__proto__":{"__proto__":"Enter at least 2 characters."}}')
    expect(!refused.ok && JSON.stringify(refused.values)).toBe('{"__proto__":{"__proto__":"x"}}')
    expect(Object.getPrototypeOf(read.ok ? read.responses : {})).toBe(Object.prototype)
  })

  it('reads several questions, each by its own position, and refuses a question the page could not show', () => {
    const first = form({ name: { type: 'string' } }, ['name'], 'first')
    const second = form({ name: { type: 'string' } }, ['name'], 'second')
    expect(readPageAnswers([first, second], post([['_action', 'accept'], ['q0.f0', 'Ada'], ['q1.f0', 'Bob']])))
      .toEqual({ ok: true, responses: { first: { action: 'accept', content: { name: 'Ada' } }, second: { action: 'accept', content: { name: 'Bob' } } } })
    expect(readPageAnswers([first, second], post([['_action', 'accept'], ['q0.f0', 'Ada']])))
      .toEqual({ ok: false, errors: { second: { name: 'This field is required.' } }, values: { first: { name: 'Ada' }, second: {} } })
    const nested = form({ deep: { type: 'object' } }, [], 'nested')
    expect(readPageAnswers([nested], post([['_action', 'accept']]))).toMatchObject({ ok: false, errors: { nested: { '': expect.stringMatching(/^This question cannot be answered here \(Field "deep": type "object" is not string/) } } })
    expect(readPageAnswers([nested], post([['_action', 'decline']]))).toEqual({ ok: true, responses: { nested: { action: 'decline' } } })
  })
})
