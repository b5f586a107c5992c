import { describe, expect, it } from 'vitest'
import { checkElicitationUrl } from '../../../src/runtime/server/elicitation/url'
import { checkResponseShape } from '../../../src/runtime/server/elicitation/responses'
import { McpElicitationError } from '../../../src/runtime/server/elicitation/error'
import { useMcpElicitation } from '../../../src/runtime/server/elicitation/use-elicitation'

describe('checkElicitationUrl', () => {
  it.each([
    ['https://example.com/a?b=1', 'https://example.com/a?b=1'],
    ['http://localhost:3000/connect', 'http://localhost:3000/connect'],
    ['http://127.0.0.1/x', 'http://127.0.0.1/x'],
  ])('accepts %s', (input, output) => {
    expect(checkElicitationUrl(input, false)).toBe(output)
  })

  it.each([
    ['javascript:alert(1)', /"javascript:" is not allowed/],
    ['data:text/html,hi', /"data:" is not allowed/],
    ['file:///etc/passwd', /"file:" is not allowed/],
    ['https://user:pw@example.com/', /credentials/],
    ['http://example.com/', /allowInsecureUrls/],
    ['not a url', /not an absolute URL/],
  ])('refuses %s with invalid-url and the fix', (input, message) => {
    expect(() => checkElicitationUrl(input, false)).toThrow(message)
    try {
      checkElicitationUrl(input, false)
    }
    catch (error) {
      expect(error).toBeInstanceOf(McpElicitationError)
      expect((error as McpElicitationError).code).toBe('invalid-url')
    }
  })

  it('allows http elsewhere only when configured', () => {
    expect(checkElicitationUrl('http://intranet.local/x', true)).toBe('http://intranet.local/x')
  })
})

describe('checkResponseShape', () => {
  it.each([
    [{ action: 'accept', content: { a: 'x', b: 1, c: true, d: ['x'] } }, undefined],
    [{ action: 'decline' }, undefined],
    [{ action: 'cancel' }, undefined],
  ])('accepts %j', (response, expected) => {
    expect(checkResponseShape(response)).toBe(expected)
  })

  it.each([
    [null, /expected an object/],
    [[], /expected an object/],
    [{ action: 'maybe' }, /action must be/],
    [{ action: 'decline', content: {} }, /only allowed when action is 'accept'/],
    [{ action: 'accept', content: [] }, /content must be an object/],
    [{ action: 'accept', content: { a: { b: 1 } } }, /content\["a"\]/],
    [{ action: 'accept', content: { a: [1] } }, /content\["a"\]/],
  ])('refuses %j', (response, message) => {
    expect(checkResponseShape(response)).toMatch(message)
  })
})

describe('useMcpElicitation outside a handler', () => {
  it('throws outside-handler with the way out', () => {
    expect(() => useMcpElicitation()).toThrow(/at the top of the `handler` function, or use the handler.s `context.elicit`/)
    try {
      useMcpElicitation()
    }
    catch (error) {
      expect((error as McpElicitationError).code).toBe('outside-handler')
    }
  })
})
