import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import type { ServerContext } from '@modelcontextprotocol/server'
import { H3Event } from 'h3'
import { afterEach, describe, expect, it } from 'vitest'
import { CACHE_BYTE_DEFAULTS } from '../../../src/runtime/server/common/config'
import { serverConfigForTests } from '../../utils/server-config'
import type { McpServerConfig } from '../../../src/runtime/server/common/config'
import { createMemoryStore } from '../../../src/runtime/server/common/store/memory'
import { McpElicitationError } from '../../../src/runtime/server/elicitation/error'
import { emitAnswered, emitAsked, emitReasked, onElicitationEvent } from '../../../src/runtime/server/elicitation/events'
import type { ElicitationEvent } from '../../../src/runtime/server/elicitation/events'
import { formQuestion, urlQuestion } from '../../../src/runtime/server/elicitation/question'
import type { ElicitationRun } from '../../../src/runtime/server/elicitation/run'
import { watchQuestions } from '../../../src/runtime/server/elicitation/question-events'
import type { McpQuestionEvent } from '../../../src/runtime/server/elicitation/question-events'

// `mcp:question` carries what the person answered only when the app opted in
// (`mcp.observe.answers`): the engine's own events, told to a listener with the option off and on.

const config: McpServerConfig = serverConfigForTests()

/** A legacy run of `tools/call deploy` on `/mcp/admin`, as the engine makes it for one call. */
function legacyRun(): ElicitationRun {
  const request = new IncomingMessage(new Socket())
  const unused = async () => {
    throw new Error('not sent in this test')
  }
  const ctx: ServerContext = {
    sessionId: 'session-1',
    mcpReq: { id: 1, method: 'tools/call', signal: new AbortController().signal, requestState: () => undefined, send: unused, notify: unused, log: unused, elicitInput: unused, requestSampling: unused },
  }
  return {
    scope: { event: new H3Event(request, new ServerResponse(request)), era: 'legacy', route: '/mcp/admin', signal: new AbortController().signal, principal: 'ada', sessionId: 'session-1', sessionTag: '0123456789abcdef0123456789abcdef' },
    ctx,
    config,
    store: createMemoryStore(),
    capabilities: { elicitation: { form: {}, url: {} } },
    calls: 0,
    call: { method: 'tools/call', name: 'deploy' },
  }
}

const invalid = (issues: string[]) => new McpElicitationError('invalid-response', issues.join('; '))
const form = formQuestion('Which region, Ada?', { type: 'object', properties: { region: { type: 'string' } } }, () => ({ ok: true, result: undefined }), invalid)
const link = urlQuestion('Connect your bank', 'https://bank.example/connect?state=one-time-secret', 'e-1', () => ({ ok: true, result: undefined }))

let stop: (() => void) | undefined
afterEach(() => stop?.())

/** Runs a legacy question through asked → invalid → asked again → accepted, and a URL question, as `watchQuestions` tells them. */
function tell(answers: boolean): McpQuestionEvent[] {
  const seen: McpQuestionEvent[] = []
  stop = watchQuestions({ listening: () => true, call: event => seen.push(event) }, { answers })
  const run = legacyRun()
  emitAsked(run, 'q0', form, new Promise(() => {}))
  emitAnswered(run, 'q0', form, { action: 'accept', content: { region: 'ada-secret-value' } }, ['"region": expected one of eu, us, got "ada-secret-value"'])
  emitReasked(run, 'q0', form)
  emitAnswered(run, 'q0', form, { action: 'accept', content: { region: 'eu-by-ada' } })
  emitAsked(run, 'q1', link, new Promise(() => {}))
  return seen
}

describe('mcp:question and the answers opt-in', () => {
  it('with it off, tells every move with the message, the fields and the wait, and never what was answered', () => {
    const seen = tell(false)
    expect(seen.map(event => `${event.key} ${event.stage}`)).toEqual(['q0 asked', 'q0 invalid', 'q0 asked', 'q0 answered', 'q1 asked'])
    expect(seen[0]).toMatchObject({ endpoint: '/mcp/admin', era: 'legacy', principal: 'ada', call: { method: 'tools/call', name: 'deploy' }, message: 'Which region, Ada?', mode: 'form', fields: ['region'] })
    expect(seen[1]).toMatchObject({ stage: 'invalid', invalidFields: ['region'], waitedMs: expect.any(Number) })
    expect(seen[4]).toMatchObject({ mode: 'url', message: 'Connect your bank' })
    // One id for every event of the call; nothing of what was typed, nor the URL's one-time state.
    expect(new Set(seen.slice(0, 4).map(event => event.runId)).size).toBe(1)
    for (const event of seen) {
      expect(event).not.toHaveProperty('content')
      expect(event).not.toHaveProperty('issues')
      expect(event).not.toHaveProperty('url')
    }
    const told = JSON.stringify(seen)
    expect(told).not.toContain('secret')
    expect(told).not.toContain('eu-by-ada')
    // The session as its tag, never its id (an anonymous session's credential).
    for (const event of seen) expect(event.sessionTag).toBe('0123456789abcdef0123456789abcdef')
    expect(told).not.toContain('session-1')
  })

  it('with it on, adds what the client sent, why it was refused and the URL', () => {
    const seen = tell(true)
    expect(seen[1]).toMatchObject({ stage: 'invalid', content: { region: 'ada-secret-value' }, issues: [expect.stringContaining('expected one of')] })
    expect(seen[3]).toMatchObject({ stage: 'answered', content: { region: 'eu-by-ada' } })
    expect(seen[3]).not.toHaveProperty('issues')
    expect(seen[4]).toMatchObject({ url: 'https://bank.example/connect?state=one-time-secret' })
    // Opting in to answers tells what the person typed, still not the session's id.
    expect(JSON.stringify(seen)).not.toContain('session-1')
  })
})

describe('elicitation events go to listeners that listen', () => {
  it('tells a listener only while its listening() says so, and the others not at all', () => {
    let listening = false
    const seen: McpQuestionEvent[] = []
    stop = watchQuestions({ listening: () => listening, call: event => seen.push(event) }, { answers: false })
    const deaf: ElicitationEvent[] = []
    const stopDeaf = onElicitationEvent({ listening: () => false, call: event => deaf.push(event) })
    try {
      const run = legacyRun()
      emitAsked(run, 'q0', form, new Promise(() => {}))
      emitAnswered(run, 'q0', form, { action: 'accept', content: { region: 'eu' } })
      expect(seen).toEqual([])
      // An app that adds its mcp:question hook at run time hears the questions from then on.
      listening = true
      emitAsked(run, 'q1', form, new Promise(() => {}))
      expect(seen.map(event => `${event.key} ${event.stage}`)).toEqual(['q1 asked'])
      expect(deaf).toEqual([])
    }
    finally {
      stopDeaf()
    }
  })

  it('logs a listener that throws and still tells the next one', () => {
    const errors: unknown[][] = []
    const original = console.error
    console.error = (...args: unknown[]) => { errors.push(args) }
    const seen: string[] = []
    const stopBroken = onElicitationEvent({ listening: () => true, call: () => { throw new Error('observer bug') } })
    stop = onElicitationEvent({ listening: () => true, call: event => seen.push(event.key) })
    try {
      emitAsked(legacyRun(), 'q0', form, new Promise(() => {}))
    }
    finally {
      console.error = original
      stopBroken()
    }
    expect(seen).toEqual(['q0'])
    expect(errors).toEqual([['[nuxt-mcp-elicitation] an elicitation listener threw:', expect.objectContaining({ message: 'observer bug' })]])
  })
})
