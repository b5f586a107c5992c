import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import { useCluster } from '../../utils/cluster'
import { until } from '../../utils/until'

// Long jobs in clients without tasks (docs/tasks.md, "Clients without tasks"): a
// `taskSupport: 'optional'` tool that runs past mcp.tasks.detachAfterMs (300 ms here) answers
// "it goes on", and goes on as a task; calling it again with the same arguments gives its
// progress, then its result. Two instances with Redis behind nginx round-robin, so the calls of
// one job reach both; the v1 Client (2025-11-25, no tasks capability) and the v2 Client
// (2026-07-28, no tasks extension, a principal in `x-user`).
const cluster = useCluster('shared-state', 2, { NUXT_MCP_TASKS_DETACH_AFTER_MS: '300' })
const JOB = 'nuxt-mcp-elicitation/job'
const dir = mkdtempSync(join(tmpdir(), 'mcp-jobs-'))
const closers: (() => Promise<void>)[] = []
afterAll(async () => {
  await Promise.all(closers.map(close => close()))
})

/** A fresh job's files: where its steps write their lines, and the gate that lets it end. */
function jobFiles(label: string) {
  const file = join(dir, `${label}.log`)
  const gate = join(dir, `${label}.gate`)
  writeFileSync(file, '')
  return { file, gate, open: () => writeFileSync(gate, ''), lines: () => readFileSync(file, 'utf8').split('\n').filter(Boolean) }
}

/** The job state a result carries in `_meta`, or `undefined`. */
function jobOf(result: unknown): Record<string, unknown> | undefined {
  if (typeof result !== 'object' || result === null || !('_meta' in result)) return undefined
  const meta = result._meta
  if (typeof meta !== 'object' || meta === null || !(JOB in meta)) return undefined
  const job: unknown = Reflect.get(meta, JOB)
  return typeof job === 'object' && job !== null ? Object.fromEntries(Object.entries(job)) : undefined
}

type Call = (name: string, args: Record<string, unknown>) => Promise<unknown>

async function legacyCaller(options: Parameters<typeof connectLegacy>[1] = {}): Promise<Call> {
  const client = await connectLegacy(cluster().url, options)
  closers.push(() => client.close())
  return async (name, args) => await client.callTool({ name, arguments: args })
}

async function modernCaller(user: string | undefined): Promise<Call> {
  const client = await connectModern(cluster().url, user === undefined ? {} : { requestInit: { headers: { 'x-user': user } } })
  closers.push(() => client.close())
  return async (name, args) => await client.callTool({ name, arguments: args })
}

/** Calls again until the job ended; returns that result. */
async function finished(call: Call, name: string, args: Record<string, unknown>): Promise<unknown> {
  let last: unknown
  await until(async () => {
    last = await call(name, args)
    return jobOf(last)?.status === 'completed' || !jobOf(last)
  }, `the end of ${name}`, 10_000, 100)
  return last
}

describe.each([
  ['the v1 Client (2025-11-25, no tasks capability)', () => legacyCaller()],
  ['the v2 Client (2026-07-28, no tasks extension)', () => modernCaller('ada')],
])('a long job through %s', (era, connect) => {
  const tag = era.startsWith('the v1') ? 'v1' : 'v2'

  it('answers "it goes on" past the limit, then its progress, then its result; nothing runs twice', async () => {
    const call = await connect()
    const { file, gate, open, lines } = jobFiles(`long-${tag}`)
    const args = { label: `long-${tag}`, file, gate }
    const first = await call('job_gate', args)
    expect(textOf(first)).toMatch(/goes on in the background.*Call "job_gate" again with the same arguments/)
    expect(first).not.toHaveProperty('isError')
    expect(first).not.toHaveProperty('structuredContent')
    expect(jobOf(first)).toMatchObject({ status: 'working', taskId: expect.any(String), pollIntervalMs: 1000 })
    const taskId = jobOf(first)?.taskId
    // Called again while it runs, through either instance: its progress, the same task, no second run.
    for (let index = 0; index < 3; index++) {
      const again = await call('job_gate', args)
      expect(jobOf(again)).toMatchObject({ status: 'working', taskId })
    }
    expect(lines()).toHaveLength(1)
    open()
    const done = await finished(call, 'job_gate', args)
    expect(textOf(done)).toMatch(new RegExp(`^long-${tag}: done by \\d+$`))
    expect(jobOf(done)).toMatchObject({ status: 'completed', taskId })
    expect(lines().map(line => line.split(' ')[0])).toEqual(['start', 'finish'])
    // The result ended the binding: the same call starts afresh (and, its gate open, ends inline).
    const fresh = await call('job_gate', args)
    expect(textOf(fresh)).toMatch(new RegExp(`^long-${tag}: done by \\d+$`))
    expect(jobOf(fresh)).toBeUndefined()
    expect(lines().map(line => line.split(' ')[0])).toEqual(['start', 'finish', 'start', 'finish'])
  })

  it('two identical calls at once run the handler once', async () => {
    const call = await connect()
    const { file, gate, open, lines } = jobFiles(`twice-${tag}`)
    const args = { label: `twice-${tag}`, file, gate }
    const both = await Promise.all([call('job_gate', args), call('job_gate', args)])
    for (const result of both) expect(jobOf(result)?.status).toBe('working')
    expect(lines()).toHaveLength(1)
    open()
    await finished(call, 'job_gate', args)
    expect(lines().map(line => line.split(' ')[0])).toEqual(['start', 'finish'])
  })

  it('a tool with an outputSchema: "it goes on" is isError without structuredContent (the client does not throw), its result is typed', async () => {
    const call = await connect()
    const { gate, open } = jobFiles(`typed-${tag}`)
    const args = { label: `typed-${tag}`, gate }
    const first = await call('job_typed', args)
    expect(first).toMatchObject({ isError: true })
    expect(first).not.toHaveProperty('structuredContent')
    expect(textOf(first)).toContain('This is not a failure')
    expect(jobOf(first)?.status).toBe('working')
    open()
    const done = await finished(call, 'job_typed', args)
    expect(done).toMatchObject({ structuredContent: { label: `typed-${tag}`, pid: expect.any(Number) } })
    expect(done).not.toHaveProperty('isError')
  })
})

describe('a job that asks after it went on as a task', () => {
  it('says in its status that a question waits, with the question in _meta (v1 Client that declares forms, not tasks)', async () => {
    const call = await legacyCaller({ answer: () => ({ action: 'accept', content: { confirm: true } }) })
    const { gate, open } = jobFiles('asks')
    const args = { label: 'asks', gate }
    expect(jobOf(await call('job_ask', args))?.status).toBe('working')
    open()
    let status: unknown
    await until(async () => {
      status = await call('job_ask', args)
      return jobOf(status)?.status === 'input_required'
    }, 'the question in the job\'s status', 10_000, 100)
    expect(textOf(status)).toContain('waits for an answer to "asks: go on?"')
    expect(Object.values(jobOf(status)?.inputRequests ?? {})).toEqual([expect.objectContaining({ method: 'elicitation/create' })])
  })

  it('asked before the limit by a client without elicitation, the question goes to the app\'s page, as in any call (a signed-in caller: confirm() is consent)', async () => {
    const call = await modernCaller('ada')
    const { gate, open } = jobFiles('asks-early')
    open()
    const result = await call('job_ask', { label: 'asks-early', gate })
    expect(textOf(result)).toContain('/_mcp/question/')
    expect(result).toHaveProperty(['_meta', 'nuxt-mcp-elicitation/question'])
    expect(jobOf(result)).toBeUndefined()
  })

  it('a client without elicitation: the question fails as unsupported, and the job ends with that tool error', async () => {
    const call = await legacyCaller()
    const { gate, open } = jobFiles('asks-none')
    const args = { label: 'asks-none', gate }
    expect(jobOf(await call('job_ask', args))?.status).toBe('working')
    open()
    let status: unknown
    await until(async () => {
      status = await call('job_ask', args)
      return jobOf(status)?.status !== 'working'
    }, 'the job\'s end', 10_000, 100)
    expect(status).toMatchObject({ isError: true })
    expect(textOf(status)).toContain('did not declare the elicitation form mode')
  })
})

describe('an anonymous 2026-07-28 caller', () => {
  it('cannot be told apart from another, so its call runs inline all the way, as before', async () => {
    const call = await modernCaller(undefined)
    const { file, gate, open, lines } = jobFiles('anonymous')
    const args = { label: 'anonymous', file, gate }
    const result = call('job_gate', args)
    await until(() => lines().length === 1, 'the job\'s start')
    // Past the 300 ms limit, it still holds the call.
    await new Promise(resolve => setTimeout(resolve, 600))
    expect(existsSync(gate)).toBe(false)
    open()
    const done = await result
    expect(textOf(done)).toMatch(/^anonymous: done by \d+$/)
    expect(jobOf(done)).toBeUndefined()
  })
})

// Last: it kills an instance of this file's cluster.
describe('a job whose instance was killed', () => {
  it('is taken over by the next call through another instance: its once() step not run again, its result from there', async () => {
    const endpoint = (index: number) => new URL('/mcp', cluster().instances[index]?.origin)
    const killed = cluster().instances[0]?.pid
    const survivor = cluster().instances[1]?.pid
    if (killed === undefined || survivor === undefined) throw new Error('no pid')
    const first = await connectModern(endpoint(0), { requestInit: { headers: { 'x-user': 'ada' } } })
    const { file, gate, open, lines } = jobFiles('moved')
    const args = { label: 'moved', file, gate }
    expect(jobOf(await first.callTool({ name: 'job_gate', arguments: args }))?.status).toBe('working')
    expect(lines()).toEqual([`start moved ${killed}`])
    process.kill(-killed, 'SIGKILL')
    open()
    const second = await connectModern(endpoint(1), { requestInit: { headers: { 'x-user': 'ada' } } })
    closers.push(() => second.close())
    const call: Call = async (name, callArgs) => await second.callTool({ name, arguments: callArgs })
    // Taken over once the dead instance's heartbeat has lapsed (within 6 s of the kill).
    let done: unknown
    await until(async () => {
      done = await call('job_gate', args)
      return jobOf(done)?.status === 'completed'
    }, 'the job taken over and ended', 15_000, 200)
    expect(textOf(done)).toBe(`moved: done by ${survivor}`)
    expect(lines()).toEqual([`start moved ${killed}`, `finish moved ${survivor}`])
  })
})
