import { describe, expect, it } from 'vitest'
import { digestJson, openRequestState, RequestStateError, sealRequestState } from '../../../src/runtime/server/elicitation/state'
import type { ModernFlowState } from '../../../src/runtime/server/elicitation/state'

const SECRET = { secret: 's'.repeat(40), domain: 'app /mcp' }
const state: ModernFlowState = { exp: Date.now() + 60_000, bind: 'bind-1', answers: { q0: { q: 'd', r: { action: 'decline' } } }, asked: { q1: { q: 'e', n: 1, k: 'elicit' } } }

describe('requestState codec', () => {
  it('round-trips a sealed state', () => {
    expect(openRequestState(SECRET, sealRequestState(SECRET, state), 'bind-1')).toEqual(state)
  })

  it.each([
    ['another secret', (wire: string) => openRequestState({ ...SECRET, secret: 't'.repeat(40) }, wire, 'bind-1'), /signature/],
    ['another endpoint (server name or route) with the same secret', (wire: string) => openRequestState({ ...SECRET, domain: 'app /mcp/admin' }, wire, 'bind-1'), /another endpoint/],
    ['another binding', (wire: string) => openRequestState(SECRET, wire, 'bind-2'), /another request/],
    ['expiry passed', (wire: string) => openRequestState(SECRET, wire, 'bind-1', state.exp + 1), /expired/],
    ['a flipped body byte', (wire: string) => openRequestState(SECRET, wire.replace(/\.(.)/, (_m, c: string) => `.${c === 'A' ? 'B' : 'A'}`), 'bind-1'), /signature/],
    ['truncation', (wire: string) => openRequestState(SECRET, wire.slice(0, 20), 'bind-1'), /malformed|signature/],
    ['an extra segment', (wire: string) => openRequestState(SECRET, `${wire}.x`, 'bind-1'), /malformed/],
  ])('refuses %s', (_name, open, reason) => {
    const wire = sealRequestState(SECRET, state)
    expect(() => open(wire)).toThrow(RequestStateError)
    expect(() => open(wire)).toThrow(reason)
  })

  it('refuses a correctly signed body of the wrong shape', () => {
    // A JSON round trip lets the test build the ill-typed value the codec must refuse.
    const wrongShape: ModernFlowState = JSON.parse(JSON.stringify({ ...state, answers: [] }))
    const wire = sealRequestState(SECRET, wrongShape)
    expect(() => openRequestState(SECRET, wire, 'bind-1')).toThrow(/wrong shape/)
  })

  it('works without Buffer (no Node built-in on the codec path)', () => {
    const saved = Reflect.get(globalThis, 'Buffer')
    Reflect.deleteProperty(globalThis, 'Buffer')
    try {
      expect(() => openRequestState(SECRET, sealRequestState({ ...SECRET, domain: 'other' }, state), 'bind-1')).toThrow(RequestStateError)
      expect(openRequestState(SECRET, sealRequestState(SECRET, state), 'bind-1')).toEqual(state)
      expect(digestJson({ a: 1 })).toMatch(/^[\w-]{32}$/)
    }
    finally {
      Reflect.set(globalThis, 'Buffer', saved)
    }
  })

  it('digests JSON independently of key order and ignores undefined members', () => {
    expect(digestJson({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(digestJson({ b: [1, { d: 3, c: 2 }], a: 1, e: undefined }))
    expect(digestJson({ a: 1 })).not.toBe(digestJson({ a: 2 }))
  })
})
