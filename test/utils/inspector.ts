// The real MCP Inspector web UI (2.12), started on loopback and driven in headless chromium: what
// the tests that use it as a host share (its launch, its deep link, its Tools screen and dialogs).
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { freePort, repoRoot } from './fixture'
import { onFreePort } from '../../scripts/ports.mjs'
import { launchBrowser } from './browser'
import type { LaunchedBrowser } from './browser'

const INSPECTOR_BIN = resolve(repoRoot, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js')

export interface RunningInspector {
  origin: string
  token: string
  output: () => string
  stop: () => Promise<void>
}

/**
 * `mcp-inspector --web` on loopback with its own free ports (web UI, MCP Apps sandbox, app origin), a
 * fixed API token, no browser auto-open, secrets in memory and storage in a throwaway directory.
 * Its ports are set by env and it cannot report ports of its own choosing: all three are drawn
 * again when one was taken before it bound it (`onFreePort`).
 */
export function startInspector(options: InspectorOptions = {}): Promise<RunningInspector> {
  return onFreePort(async (clientPort: number) => launchInspector(clientPort, await freePort(), await freePort(), options))
}

/** What the Inspector starts with: servers already in its catalog (`~/.mcp-inspector/mcp.json`), by id. */
export interface InspectorOptions {
  /** e.g. `{ 'deep-link': { type: 'streamable-http', url, protocolEra: 'modern' } }`: the deep link then connects with those settings. */
  servers?: Record<string, Record<string, unknown>>
  /** More command-line arguments after `--web`, e.g. `['--transport', 'http', '--server-url', url]` (an ad-hoc server). */
  args?: string[]
}

async function launchInspector(clientPort: number, sandboxPort: number, appOriginPort: number, options: InspectorOptions): Promise<RunningInspector> {
  const token = randomBytes(16).toString('hex')
  const home = mkdtempSync(join(tmpdir(), 'mcp-inspector-home-'))
  if (options.servers) {
    mkdirSync(join(home, '.mcp-inspector'), { recursive: true })
    writeFileSync(join(home, '.mcp-inspector', 'mcp.json'), JSON.stringify({ mcpServers: options.servers }))
  }
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('VITEST')) env[key] = value
  }
  Object.assign(env, {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    CLIENT_PORT: String(clientPort),
    MCP_SANDBOX_PORT: String(sandboxPort),
    MCP_APP_ORIGIN_PORT: String(appOriginPort),
    MCP_INSPECTOR_API_TOKEN: token,
    MCP_AUTO_OPEN_ENABLED: 'false',
    MCP_INSPECTOR_SECRET_STORE: 'memory',
    MCP_STORAGE_DIR: join(home, 'storage'),
    HOME: home,
  })
  let log = ''
  const child: ChildProcess = spawn(process.execPath, [INSPECTOR_BIN, '--web', ...(options.args ?? [])], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout?.on('data', (chunk: Buffer) => { log += chunk.toString() })
  child.stderr?.on('data', (chunk: Buffer) => { log += chunk.toString() })
  const origin = `http://127.0.0.1:${clientPort}`
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise(r => child.once('exit', r))
      child.kill('SIGTERM')
      const force = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(force)
    }
    rmSync(home, { recursive: true, force: true })
  }
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) {
      await stop()
      throw new Error(`MCP Inspector exited early (code ${child.exitCode}):\n${log}`)
    }
    try {
      const response = await fetch(`${origin}/`, { signal: AbortSignal.timeout(2000) })
      if (response.ok && log.includes('is up and running')) break
    }
    catch {}
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`MCP Inspector did not serve ${origin} within 60 s:\n${log}`)
    }
    await new Promise(r => setTimeout(r, 200))
  }
  return { origin, token, output: () => log, stop }
}

/** The Inspector's deep link: connect to `serverUrl` over Streamable HTTP right away. */
export function deepLink(inspector: RunningInspector, serverUrl: URL): string {
  const params = new URLSearchParams({
    MCP_INSPECTOR_API_TOKEN: inspector.token,
    serverUrl: serverUrl.href,
    transport: 'http',
    autoConnect: inspector.token,
  })
  return `${inspector.origin}/?${params}`
}

/**
 * The Tools screen with `tool` selected, its required `args` filled, its Execute button ready.
 *
 * @example
 * ```ts
 * await openTool(page, 'task_deploy', { service: 'web' })
 * ```
 */
export async function openTool(page: Page, tool: string, args: Record<string, string> = {}): Promise<void> {
  const screen = page.getByTestId('tools-screen')
  if (await screen.count() === 0) {
    // The header's tab row (a Mantine SegmentedControl: radio inputs behind their labels) shows
    // Servers, Tools, ... as soon as the server's capabilities are known; when the tools list lands
    // later, an Apps tab is inserted before Tools if a tool has a UI, and the Tools label moves. A
    // mouse click is two input events: when the row moves between the button going down on the
    // label and coming up elsewhere, the click goes to their common parent, no radio is checked, and
    // the Inspector stays on Servers (Playwright checks the hit target of the first event only).
    // Nothing on the Servers screen tells that the tools list has landed, so the tab is chosen the
    // way a keyboard user does, on the radio itself (focus, Space): wherever it has moved to.
    await page.getByTestId('connection-status').getByRole('radio', { name: 'Tools', exact: true }).press('Space')
    await screen.waitFor()
  }
  // A finished call's Results panel takes the place of the tool's form until it is closed.
  const closeResults = screen.getByRole('button', { name: 'Close results' })
  if (await closeResults.count() > 0) await closeResults.click()
  await screen.getByRole('button', { name: tool, exact: true }).click()
  for (const [name, value] of Object.entries(args)) await screen.getByRole('textbox', { name }).fill(value)
  await expect.poll(() => screen.getByRole('button', { name: 'Execute Tool' }).isEnabled(), { timeout: 30_000 }).toBe(true)
}

/** The text of the Results editor (an Ace editor) once a tool call has finished, parsed as JSON. */
export async function readResult(page: Page): Promise<Record<string, unknown>> {
  const screen = page.getByTestId('tools-screen')
  await screen.getByRole('heading', { name: 'Results' }).waitFor({ timeout: 30_000 })
  await expect.poll(() => screen.getAttribute('data-call-status'), { timeout: 30_000 }).not.toBe('pending')
  const text = await screen.locator('.ace_editor .ace_text-layer').first().innerText()
  try {
    return JSON.parse(text) as Record<string, unknown>
  }
  catch {
    throw new Error(`Tool result is not JSON: ${text}`)
  }
}

export function elicitationDialog(page: Page) {
  return page.getByRole('dialog', { name: 'Elicitation Request' })
}

/**
 * Clicks a dialog button until the dialog closes. On a busy machine the Inspector can swallow a
 * click that lands while its modal is still opening (seen in CI: the dialog stayed open, the
 * server kept waiting); a person would click again. A click that worked closes the dialog, so
 * nothing is ever sent twice.
 */
export async function clickToClose(dialog: ReturnType<typeof elicitationDialog>, button: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await dialog.getByRole('button', { name: button }).click()
    try {
      await dialog.waitFor({ state: 'hidden', timeout: 5_000 })
      return
    }
    catch (error) {
      if (attempt >= 3) throw error
    }
  }
}

/** The Inspector with a browser on its deep link to `serverUrl`, connected. */
export interface ConnectedInspector { inspector: RunningInspector, browser: LaunchedBrowser, page: Page }

/**
 * Starts the Inspector (`options`: its catalog, e.g. the 2026-07-28 era for the deep link),
 * launches Chromium and opens the deep link to `serverUrl`; resolves once the Inspector says it
 * is connected.
 *
 * @example
 * ```ts
 * const { inspector, browser, page } = await openInspector(fixture.url, { servers: { 'deep-link': { type: 'streamable-http', url: fixture.url.href, protocolEra: 'modern' } } })
 * ```
 */
export async function openInspector(serverUrl: URL, options: InspectorOptions = {}): Promise<ConnectedInspector> {
  const inspector = await startInspector(options)
  const browser = await launchBrowser()
  const page = browser.page
  page.setDefaultTimeout(30_000)
  await page.goto(deepLink(inspector, serverUrl), { waitUntil: 'domcontentloaded' })
  await page.locator('[data-testid="connection-status"][data-status="connected"]').waitFor({ timeout: 60_000 })
  return { inspector, browser, page }
}
