/**
 * The docs' `mcp:auth` samples are run, not only compiled (docs/samples.test.ts), against the
 * cases where a sample that looks right fails open: a secret that is not set, a subject that two
 * issuers both have. Each sample is taken from its markdown file as written, transpiled, and its
 * hook run on real HTTP requests through h3, the way Nitro runs it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createApp, eventHandler, toNodeListener } from 'h3'
import type { H3Event } from 'h3'
import ts from 'typescript'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { repoRoot } from '../../utils/fixture'

const ROOT = repoRoot
const OUT_DIR = join(ROOT, 'test/docs/.generated/run')

/** What a hook may read and set of `mcp:auth`'s context, as the module passes it. */
interface AuthContext {
  event: H3Event
  route: string
  principal?: string
  authInfo?: { extra?: Record<string, unknown> }
  reject: (message: string) => void
}
type AuthHook = (auth: AuthContext) => unknown

/** The ts block of `file` whose first line is `firstLine`, transpiled and loaded; returns its `mcp:auth` hook. */
async function loadHook(file: string, firstLine: string): Promise<AuthHook> {
  const markdown = readFileSync(join(ROOT, file), 'utf8')
  const blocks = [...markdown.matchAll(/^( *)```ts\n([\s\S]*?)^ *```$/gm)].map(match => match[2]!.split('\n').map(line => line.slice(match[1]!.length)).join('\n'))
  const code = blocks.find(block => block.startsWith(firstLine))
  if (!code) throw new Error(`${file} has no ts block starting with "${firstLine}"`)
  const js = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText
  mkdirSync(OUT_DIR, { recursive: true })
  const path = join(OUT_DIR, `${firstLine.replace(/\W+/g, '-')}-${Date.now()}.mjs`)
  writeFileSync(path, js)
  let hook: AuthHook | undefined
  // Nitro's auto-import, as the app's build provides it.
  Reflect.set(globalThis, 'defineNitroPlugin', (plugin: unknown) => plugin)
  const { default: plugin } = await import(pathToFileURL(path).href) as { default: (nitro: unknown) => void }
  plugin({ hooks: { hook: (name: string, run: AuthHook) => { if (name === 'mcp:auth') hook = run } } })
  if (!hook) throw new Error(`the sample in ${file} registers no mcp:auth hook`)
  return hook
}

const servers: Server[] = []
afterAll(() => {
  for (const server of servers) server.close()
  Reflect.deleteProperty(globalThis, 'defineNitroPlugin')
})

/** Serves `hook` over HTTP: each request's outcome is the principal it set or the refusal. */
async function serve(hook: AuthHook, context: Partial<AuthContext>): Promise<(headers?: Record<string, string>) => Promise<{ principal?: string, rejected?: string }>> {
  const app = createApp()
  app.use(eventHandler(async (event) => {
    let rejected: string | undefined
    const auth: AuthContext = { route: '/mcp', ...context, event, reject: (message) => { rejected = message } }
    await hook(auth)
    return rejected === undefined ? { principal: auth.principal } : { rejected }
  }))
  const server = createServer(toNodeListener(app))
  servers.push(server)
  await new Promise<void>(done => server.listen(0, '127.0.0.1', done))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp/admin`
  return async headers => (await fetch(url, { headers })).json() as Promise<{ principal?: string, rejected?: string }>
}

afterEach(() => {
  delete process.env.STAFF_TOKEN
  Reflect.deleteProperty(globalThis, 'findUserByOidcIdentity')
  Reflect.deleteProperty(globalThis, 'findUserByOidcSubject')
})

describe('the docs\' mcp:auth samples, run', () => {
  it('definitions.md, the staff token: closed when STAFF_TOKEN is unset, and only the right token opens it', async () => {
    const hook = await loadHook('docs/definitions.md', '// server/plugins/mcp-admin-auth.ts')
    const request = await serve(hook, { route: '/mcp/admin' })
    delete process.env.STAFF_TOKEN
    expect(await request()).toMatchObject({ rejected: expect.stringMatching(/STAFF_TOKEN is not set/) })
    expect(await request({ 'x-staff-token': '' })).toMatchObject({ rejected: expect.any(String) })
    process.env.STAFF_TOKEN = 'staff-secret-0123456789'
    expect(await request()).toMatchObject({ rejected: expect.stringMatching(/send x-staff-token/) })
    expect(await request({ 'x-staff-token': 'staff-secret-012345678' })).toMatchObject({ rejected: expect.any(String) })
    expect(await request({ 'x-staff-token': 'staff-secret-0123456789' })).toEqual({ principal: 'staff' })
  })

  it('authorization.md, linking accounts: the same subject from another issuer is not the linked user', async () => {
    const hook = await loadHook('docs/authorization.md', '// server/plugins/mcp-users.ts')
    const linked = new Map([['https://a.example.com/#alice', { id: 'user-1' }]])
    Reflect.set(globalThis, 'findUserByOidcIdentity', async (issuer: string, subject: string) => linked.get(`${issuer}#${subject}`))
    // What the sample called before it took the issuer too: a lookup by subject alone.
    Reflect.set(globalThis, 'findUserByOidcSubject', async (subject: string) => [...linked].find(([identity]) => identity.endsWith(`#${subject}`))?.[1])
    const fromA = await serve(hook, { authInfo: { extra: { iss: 'https://a.example.com/', sub: 'alice' } } })
    const fromB = await serve(hook, { authInfo: { extra: { iss: 'https://b.example.com/', sub: 'alice' } } })
    const noIssuer = await serve(hook, { authInfo: { extra: { sub: 'alice' } } })
    expect(await fromA()).toEqual({ principal: 'user-1' })
    expect(await fromB()).toMatchObject({ rejected: expect.stringMatching(/No account is linked/) })
    expect(await noIssuer()).toMatchObject({ rejected: expect.any(String) })
  })
})
