// The real MCP Inspector web UI (2.12), driven in headless Debian chromium, answers the module's
// elicitations: a form (accept and decline) and a URL-mode request. Nothing here is simulated: the
// Inspector's Node backend connects to the built `elicitation` fixture over Streamable HTTP, and the
// browser clicks through the form the Inspector renders from the requested schema.
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertChromium, launchBrowser, screenshot, withFailureScreenshot } from '../../utils/browser'
import type { LaunchedBrowser } from '../../utils/browser'
import { freePort, repoRoot, startFixture } from '../../utils/fixture'
import { onFreePort } from '../../../scripts/ports.mjs'
import type { RunningFixture } from '../../utils/fixture'

const INSPECTOR_BIN = resolve(repoRoot, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js')
const TEST_TIMEOUT = 120_000

interface RunningInspector {
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
function startInspector(): Promise<RunningInspector> {
  return onFreePort(async (clientPort: number) => launchInspector(clientPort, await freePort(), await freePort()))
}

async function launchInspector(clientPort: number, sandboxPort: number, appOriginPort: number): Promise<RunningInspector> {
  const token = randomBytes(16).toString('hex')
  const home = mkdtempSync(join(tmpdir(), 'mcp-inspector-home-'))
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
  const child: ChildProcess = spawn(process.execPath, [INSPECTOR_BIN, '--web'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
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
function deepLink(inspector: RunningInspector, serverUrl: URL): string {
  const params = new URLSearchParams({
    MCP_INSPECTOR_API_TOKEN: inspector.token,
    serverUrl: serverUrl.href,
    transport: 'http',
    autoConnect: inspector.token,
  })
  return `${inspector.origin}/?${params}`
}

let fixture: RunningFixture | undefined
let inspector: RunningInspector | undefined
let browser: LaunchedBrowser | undefined
let page: Page

function diagnostics(): string {
  return [
    `--- fixture output ---\n${fixture?.output().slice(-4000) ?? ''}`,
    `--- inspector output ---\n${inspector?.output().slice(-4000) ?? ''}`,
    `--- blocked non-loopback requests ---\n${browser?.blocked.join('\n') ?? ''}`,
  ].join('\n')
}

let setupError: Error | undefined

async function setUp(): Promise<void> {
  // Never skipped: a missing browser is a failure that names the script installing it.
  assertChromium()
  fixture = await startFixture('elicitation')
  inspector = await startInspector()
  browser = await launchBrowser()
  page = browser.page
  page.setDefaultTimeout(30_000)
  // "Copy URL" in the URL-mode dialog writes to the clipboard.
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: inspector.origin })
  await page.goto(deepLink(inspector, fixture.url), { waitUntil: 'domcontentloaded' })
  try {
    await page.locator('[data-testid="connection-status"][data-status="connected"]').waitFor({ timeout: 60_000 })
  }
  catch (error) {
    const status = await page.getByTestId('connection-status').getAttribute('data-status').catch(() => null)
    const shot = await screenshot(page, 'inspector-connect.failure').catch(() => '(no screenshot)')
    throw new Error(`The Inspector did not connect to ${fixture.url.href} (status ${status}; screenshot ${shot}): ${(error as Error).message}\n${diagnostics()}`)
  }
}

/** Runs a test body; on failure saves `test-results/inspector-<name>.failure.png` and adds the logs. */
async function step(name: string, body: () => Promise<void>): Promise<void> {
  if (setupError) throw setupError
  try {
    await withFailureScreenshot(page, `inspector-${name}`, body)
  }
  catch (error) {
    if (error instanceof Error) error.message += `\n${diagnostics()}`
    // Leave no elicitation dialog open for the next test (best effort).
    const cancel = page.getByRole('dialog', { name: 'Elicitation Request' }).getByRole('button', { name: 'Cancel' })
    if (await cancel.isVisible().catch(() => false)) await cancel.click({ timeout: 5000 }).catch(() => {})
    throw error
  }
}

/** The Tools screen with `tool` selected, its Execute button ready. */
async function openTool(tool: string): Promise<void> {
  const toolsTab = page.locator('label.mantine-SegmentedControl-label', { hasText: /^Tools$/ })
  if (await page.getByTestId('tools-screen').count() === 0) await toolsTab.click()
  const screen = page.getByTestId('tools-screen')
  // A finished call's Results panel takes the place of the tool's form until it is closed.
  const closeResults = screen.getByRole('button', { name: 'Close results' })
  if (await closeResults.count() > 0) await closeResults.click()
  await screen.getByRole('button', { name: tool, exact: true }).click()
  await expect.poll(() => screen.getByRole('button', { name: 'Execute Tool' }).isEnabled(), { timeout: 30_000 }).toBe(true)
}

/** The text of the Results editor (an Ace editor) once a tool call has finished, parsed as JSON. */
async function readResult(): Promise<Record<string, unknown>> {
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

function elicitationDialog() {
  return page.getByRole('dialog', { name: 'Elicitation Request' })
}

/**
 * Clicks a dialog button until the dialog closes. On a busy machine the Inspector can swallow a
 * click that lands while its modal is still opening (seen in CI: the dialog stayed open, the
 * server kept waiting); a person would click again. A click that worked closes the dialog, so
 * nothing is ever sent twice.
 */
async function clickToClose(dialog: ReturnType<typeof elicitationDialog>, button: string): Promise<void> {
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

describe('MCP Inspector web UI (headless chromium)', () => {
  beforeAll(async () => {
    try {
      await setUp()
    }
    catch (error) {
      // Kept and rethrown by every test, so each one fails (a throwing beforeAll would only mark
      // them skipped): a missing browser must never read as a skip.
      setupError = error instanceof Error ? error : new Error(String(error))
    }
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await inspector?.stop()
    await fixture?.stop()
  }, 60_000)

  it('connects through the deep link over Streamable HTTP and negotiates the legacy era', async () => {
    await step('connect', async () => {
      const header = page.getByTestId('connection-status')
      expect(await header.getAttribute('data-deeplink')).toBe('parsed')
      // The Servers screen's card for the deep-linked server names the negotiated protocol version.
      await expect.poll(() => page.getByText('MCP 2025-11-25', { exact: true }).count(), { timeout: 30_000 }).toBeGreaterThan(0)
      await openTool('ask_form')
      const screen = page.getByTestId('tools-screen')
      expect(Number(await screen.getAttribute('data-tool-count'))).toBeGreaterThanOrEqual(3)
      for (const tool of ['ask_form', 'ask_confirm', 'ask_url']) {
        await expect.poll(() => screen.getByRole('button', { name: tool, exact: true }).count()).toBe(1)
      }
    })
  }, TEST_TIMEOUT)

  it('renders the ask_form form; filling and submitting it returns the answers', async () => {
    await step('form-accept', async () => {
      await openTool('ask_form')
      await page.getByTestId('tools-screen').getByRole('button', { name: 'Execute Tool' }).click()
      const dialog = elicitationDialog()
      await dialog.waitFor({ timeout: 30_000 })
      await expect.poll(() => dialog.getByText('Your details').count()).toBeGreaterThan(0)
      // One control per schema property, labelled by its title (or its key when it has none).
      const name = dialog.getByRole('textbox', { name: 'Name' })
      const plan = dialog.getByRole('textbox', { name: 'plan' })
      const subscribe = dialog.getByRole('checkbox', { name: 'subscribe' })
      await name.waitFor()
      expect(await dialog.getByRole('textbox', { name: 'age' }).count()).toBe(1)
      expect(await dialog.getByRole('textbox', { name: 'tags' }).count()).toBe(1)
      // `subscribe` defaults to true in the schema, and the Inspector honours the default.
      expect(await subscribe.isChecked()).toBe(true)
      // Required fields keep Submit disabled until they are filled.
      expect(await dialog.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true)

      await name.fill('Ada')
      await plan.click()
      await page.getByRole('listbox', { name: 'plan' }).getByRole('option', { name: 'pro', exact: true }).click()
      await subscribe.uncheck()
      expect(await plan.inputValue()).toBe('pro')
      expect(await subscribe.isChecked()).toBe(false)
      await screenshot(page, 'inspector-ask_form-filled')

      await clickToClose(dialog, 'Submit')
      const result = await readResult()
      expect(result).toEqual({ action: 'accept', content: { name: 'Ada', plan: 'pro', subscribe: false } })
      const text = JSON.stringify(result)
      expect(text).toContain('Ada')
      expect(text).toContain('pro')
      expect(text).toContain('"subscribe":false')
      await screenshot(page, 'inspector-ask_form-result')
    })
  }, TEST_TIMEOUT)

  it('declining the ask_form form returns action decline', async () => {
    await step('form-decline', async () => {
      await openTool('ask_form')
      await page.getByTestId('tools-screen').getByRole('button', { name: 'Execute Tool' }).click()
      const dialog = elicitationDialog()
      await dialog.waitFor({ timeout: 30_000 })
      await clickToClose(dialog, 'Decline')
      expect(await readResult()).toEqual({ action: 'decline' })
    })
  }, TEST_TIMEOUT)

  it('shows the ask_url URL request; consenting without opening the page returns accept', async () => {
    await step('url-accept', async () => {
      await openTool('ask_url')
      await page.getByTestId('tools-screen').getByRole('button', { name: 'Execute Tool' }).click()
      const dialog = elicitationDialog()
      await dialog.waitFor({ timeout: 30_000 })
      await expect.poll(() => dialog.getByText('Connect your account').count()).toBeGreaterThan(0)
      await expect.poll(() => dialog.getByText('https://example.com/connect', { exact: true }).count()).toBeGreaterThan(0)
      // The legacy era carries an elicitationId for URL mode; the Inspector shows it.
      await expect.poll(() => dialog.getByText(/^Request ID: \S+/).count()).toBeGreaterThan(0)
      await screenshot(page, 'inspector-ask_url-request')
      // "Copy URL" (unlike "Open in Browser") opens no window and still moves the dialog to its
      // waiting state, which offers "I've completed it": the Inspector's accept for URL mode.
      await dialog.getByRole('button', { name: 'Copy URL' }).click()
      await dialog.getByRole('button', { name: 'I\'ve completed it' }).click()
      await dialog.waitFor({ state: 'hidden' })
      expect(await readResult()).toEqual({ action: 'accept', hasId: true })
      expect(browser!.blocked.filter(url => url.includes('example.com'))).toEqual([])
    })
  }, TEST_TIMEOUT)
})
