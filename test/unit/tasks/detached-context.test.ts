import type { ServerContext } from '@modelcontextprotocol/server'
import { describe, expect, it } from 'vitest'
import { detachContext } from '../../../src/runtime/server/tasks/calls/detached-context'

/** Every function reachable from `value` (own enumerable properties, depth-first). */
function functionsIn(value: unknown, seen = new Set<unknown>()): unknown[] {
  if (typeof value === 'function') return [value]
  if (typeof value !== 'object' || value === null || seen.has(value)) return []
  seen.add(value)
  return Object.values(value).flatMap(inner => functionsIn(inner, seen))
}

describe('the context a task keeps of the request it began in', () => {
  const calls: string[] = []
  const reach = (name: string) => async () => {
    calls.push(name)
    return undefined as never
  }
  const request = new AbortController()
  const original: ServerContext = {
    sessionId: 'session-1',
    mcpReq: {
      id: 7,
      method: 'tools/call',
      _meta: { progressToken: 'p-1' },
      signal: request.signal,
      requestState: () => undefined,
      send: reach('send'),
      notify: reach('notify'),
      log: reach('log'),
      elicitInput: reach('elicitInput'),
      requestSampling: reach('requestSampling'),
    },
    http: { authInfo: { token: 't', clientId: 'ada', scopes: ['mcp:tools'] }, req: new Request('http://127.0.0.1/mcp'), closeSSE: () => calls.push('closeSSE') },
  }
  const task = new AbortController()
  const detached = detachContext(original, task.signal)

  it('keeps what the request told: id, method, _meta, session and the caller\'s auth', () => {
    expect(detached.mcpReq).toMatchObject({ id: 7, method: 'tools/call', _meta: { progressToken: 'p-1' } })
    expect(detached.sessionId).toBe('session-1')
    expect(detached.http).toEqual({ authInfo: { token: 't', clientId: 'ada', scopes: ['mcp:tools'] } })
    expect(detached.mcpReq.signal).toBe(task.signal)
  })

  it('holds none of the request\'s ways back (they keep its transport and server alive)', () => {
    const kept = functionsIn(detached)
    for (const way of functionsIn(original)) expect(kept).not.toContain(way)
  })

  it('refuses those ways with what to use in a task instead, reaching nothing of the request', async () => {
    await expect(detached.mcpReq.log('info', 'hello')).rejects.toThrow(/ctx\.mcpReq\.log is not available in a task.*useMcpElicitation\(\).*log\(\) and progress\(\)/)
    await expect(detached.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: 'p-1', progress: 1 } })).rejects.toThrow(/ctx\.mcpReq\.notify is not available in a task/)
    await expect(detached.mcpReq.send({ method: 'ping' })).rejects.toThrow(/ctx\.mcpReq\.send is not available in a task/)
    expect(calls).toEqual([])
  })
})
