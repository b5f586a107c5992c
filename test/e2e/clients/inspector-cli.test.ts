/**
 * The MCP Inspector CLI (`mcp-inspector --cli`) is a real client that never declares the
 * elicitation capability: the ready-made "client without elicitation". It is run as a child
 * process against the built `elicitation` fixture, in each era it can negotiate, through a
 * transparent recording proxy so each test can show what went over the wire.
 *
 * Era findings (from the recorded traffic):
 * - no `--protocol-era` (ad-hoc URL runs default to legacy) and `--protocol-era legacy`: a
 *   2025-11-25 session (`initialize`, no `server/discover`); `ask_form` is answered 200 with a tool
 *   error "did not declare the elicitation form mode"; the CLI exits 5 (`tool_is_error`).
 * - `--protocol-era modern` and `--protocol-era auto` (which settles on modern against this
 *   dual-era server): 2026-07-28 (`server/discover`, per-request `_meta`); `ask_form` is answered
 *   HTTP 400 with JSON-RPC error -32021 naming the missing elicitation capability; the CLI exits 1.
 */
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repoRoot, startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { startRecorder } from '../../utils/recorder'
import type { Exchange } from '../../utils/recorder'
import { textOf } from '../../utils/clients'

/** The Inspector's launcher, read from its package.json `bin` as `npx mcp-inspector` would resolve it. */
function inspectorBin(): string {
  const packageDir = resolve(repoRoot, 'node_modules/@modelcontextprotocol/inspector')
  const manifest: unknown = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'))
  if (typeof manifest === 'object' && manifest !== null && 'bin' in manifest && typeof manifest.bin === 'object' && manifest.bin !== null && 'mcp-inspector' in manifest.bin && typeof manifest.bin['mcp-inspector'] === 'string')
    return join(packageDir, manifest.bin['mcp-inspector'])
  throw new Error('@modelcontextprotocol/inspector package.json has no "mcp-inspector" bin')
}


// --- Running the CLI -------------------------------------------------------------------------

interface CliRun {
  code: number | null
  stdout: string
  stderr: string
  /** Exchanges the recorder saw during this run. */
  wire: Exchange[]
}

let app: RunningFixture
let recorder: Awaited<ReturnType<typeof startRecorder>>
const home = mkdtempSync(join(tmpdir(), 'inspector-cli-e2e-'))
const running = new Set<ChildProcess>()

beforeAll(async () => {
  app = await startFixture('elicitation')
  recorder = await startRecorder(app.url)
  mkdirSync(join(home, 'storage'), { recursive: true })
})
afterAll(async () => {
  for (const child of running) child.kill('SIGKILL')
  await recorder?.close()
  await app?.stop()
  rmSync(home, { recursive: true, force: true })
})

async function runCli(args: string[]): Promise<CliRun> {
  const from = recorder.exchanges.length
  const child = spawn(process.execPath, [inspectorBin(), '--cli', recorder.url.href, '--transport', 'http', '--format', 'json', '--connect-timeout', '20000', ...args], {
    cwd: home,
    env: {
      PATH: process.env.PATH ?? '',
      // Catalog, client config and OAuth state default to ~/.mcp-inspector: keep them in a temp dir.
      HOME: home,
      MCP_CATALOG_PATH: join(home, 'mcp.json'),
      MCP_CLIENT_CONFIG_PATH: join(home, 'storage', 'client.json'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString() })
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
  const timer = setTimeout(() => child.kill('SIGKILL'), 45_000)
  const code = await new Promise<number | null>((done) => {
    child.once('close', exitCode => done(exitCode))
  })
  clearTimeout(timer)
  running.delete(child)
  return { code, stdout, stderr, wire: recorder.exchanges.slice(from) }
}

/** The one JSON object a `--format json` run printed on the given stream. */
function jsonOf(stream: string): Record<string, unknown> {
  const line = stream.split('\n').map(text => text.trim()).filter(text => text.startsWith('{')).at(0)
  if (line === undefined) throw new Error(`no JSON on the stream:\n${stream}`)
  const parsed: unknown = JSON.parse(line)
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`not a JSON object: ${line}`)
  return Object.fromEntries(Object.entries(parsed))
}


function describeRun(run: CliRun): string {
  return `exit ${run.code}\n--- stdout ---\n${run.stdout}\n--- stderr ---\n${run.stderr}\n--- wire ---\n${run.wire.map(exchange => `${exchange.verb} ${exchange.rpc.join(',')} v=${exchange.protocolVersion} -> ${exchange.status} ${exchange.responseBody.slice(0, 300)}`).join('\n')}`
}

const eras = [
  { flags: [], era: 'legacy' },
  { flags: ['--protocol-era', 'legacy'], era: 'legacy' },
  { flags: ['--protocol-era', 'modern'], era: 'modern' },
  { flags: ['--protocol-era', 'auto'], era: 'modern' },
] as const

describe.each(eras)('mcp-inspector --cli $flags', ({ flags, era }) => {
  it(`negotiates the ${era} era without declaring elicitation, and lists the tools`, async () => {
    const run = await runCli([...flags, '--method', 'tools/list'])
    expect(run.code, describeRun(run)).toBe(0)
    const output = jsonOf(run.stdout)
    const result = output.result
    expect(typeof result === 'object' && result !== null && 'tools' in result && Array.isArray(result.tools), describeRun(run)).toBe(true)
    const names = typeof result === 'object' && result !== null && 'tools' in result && Array.isArray(result.tools)
      ? result.tools.map((tool: unknown) => typeof tool === 'object' && tool !== null && 'name' in tool ? tool.name : undefined)
      : []
    expect(names).toEqual(expect.arrayContaining(['ask_form', 'ask_confirm', 'ask_fallback', 'ask_supports', 'ask_url']))

    const methods = run.wire.flatMap(exchange => exchange.rpc)
    const list = run.wire.find(exchange => exchange.rpc.includes('tools/list'))
    if (era === 'legacy') {
      expect(methods, describeRun(run)).toContain('initialize')
      expect(methods).not.toContain('server/discover')
      const init = run.wire.find(exchange => exchange.rpc.includes('initialize'))
      expect(init?.requestBody).not.toContain('elicitation')
      expect(list?.protocolVersion).toBe('2025-11-25')
    }
    else {
      expect(methods, describeRun(run)).toContain('server/discover')
      expect(methods).not.toContain('initialize')
      expect(list?.protocolVersion).toBe('2026-07-28')
      expect(list?.requestBody).toContain('io.modelcontextprotocol/clientCapabilities')
      expect(list?.requestBody).not.toContain('elicitation')
    }
  }, 60_000)

  it('ask_supports reports no form and no url support', async () => {
    const run = await runCli([...flags, '--method', 'tools/call', '--tool-name', 'ask_supports'])
    expect(run.code, describeRun(run)).toBe(0)
    expect(JSON.parse(textOf(jsonOf(run.stdout).result))).toEqual({ form: false, url: false })
  }, 60_000)

  it('ask_form fails, saying the client did not declare elicitation', async () => {
    const run = await runCli([...flags, '--method', 'tools/call', '--tool-name', 'ask_form', '--tool-arg', 'label=inspector-cli'])
    const call = run.wire.find(exchange => exchange.rpc.includes('tools/call'))
    if (era === 'legacy') {
      // The handler's form() throws `unsupported`; the tool answers with isError and the message.
      expect(run.code, describeRun(run)).toBe(5)
      const result = jsonOf(run.stdout).result
      expect(typeof result === 'object' && result !== null && 'isError' in result && result.isError).toBe(true)
      expect(textOf(result)).toMatch(/did not declare the elicitation form mode/)
      expect(jsonOf(run.stderr).error).toMatchObject({ code: 'tool_is_error' })
      expect(call?.status).toBe(200)
      expect(call?.protocolVersion).toBe('2025-11-25')
    }
    else {
      // Modern asks anyway; the SDK refuses the round with HTTP 400 and -32021.
      expect(run.code, describeRun(run)).toBe(1)
      expect(jsonOf(run.stderr).error).toMatchObject({ message: expect.stringMatching(/elicitation\/create.*do not declare the required capability/) })
      expect(call?.status, describeRun(run)).toBe(400)
      expect(call?.protocolVersion).toBe('2026-07-28')
      const body: unknown = JSON.parse(call?.responseBody ?? '{}')
      expect(body).toMatchObject({ error: { code: -32021 } })
      expect(call?.responseBody).toContain('elicitation')
    }
  }, 60_000)

  it('ask_fallback uses its declared fallback', async () => {
    const run = await runCli([...flags, '--method', 'tools/call', '--tool-name', 'ask_fallback'])
    expect(run.code, describeRun(run)).toBe(0)
    expect(textOf(jsonOf(run.stdout).result)).toBe('supports=false channel=stable')
  }, 60_000)
})
