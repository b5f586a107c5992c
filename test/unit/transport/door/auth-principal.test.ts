import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import { createEvent } from 'h3'
import { describe, expect, it } from 'vitest'
import { createAuthContext, settlePrincipal } from '../../../../src/runtime/server/transport/door/auth'
import { taskOwnerOf } from '../../../../src/runtime/server/tasks/calls/methods'
import { ownsTask } from '../../../../src/runtime/server/tasks/store/record'

// Issue 48 review: an mcp:auth hook writing `principal = user?.id ?? ''` made '' a principal for
// tasks (one owner for every such caller, who could then read each other's tasks on 2026-07-28),
// while the result cache read it as none. It is settled once, where the hooks have run.
function authContext() {
  const req = new IncomingMessage(new Socket())
  req.url = '/mcp'
  return createAuthContext(createEvent(req, new ServerResponse(req)), '/mcp')
}

describe('the principal an mcp:auth hook settles', () => {
  it('is none when the hook wrote an empty one, so tasks are bound to the client address', () => {
    const auth = authContext()
    auth.principal = ''
    settlePrincipal(auth)
    expect(auth.principal).toBeUndefined()
    const scope = (address: string) => ({ event: auth.event, era: 'modern' as const, route: '/mcp', signal: new AbortController().signal, ...(auth.principal !== undefined && { principal: auth.principal }), address })
    const first = taskOwnerOf(scope('10.0.0.1'), 'modern')
    const second = taskOwnerOf(scope('10.0.0.2'), 'modern')
    expect(ownsTask({ owner: first }, second)).toBe(false)
  })

  it('keeps a real one', () => {
    const auth = authContext()
    auth.principal = 'ada'
    settlePrincipal(auth)
    expect(auth.principal).toBe('ada')
  })
})
