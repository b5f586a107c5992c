// The real MCP Inspector web UI (2.12), driven in headless Debian chromium, answers the module's
// elicitations: a form (accept and decline) and a URL-mode request. Nothing here is simulated: the
// Inspector's Node backend connects to the built `elicitation` fixture over Streamable HTTP, and the
// browser clicks through the form the Inspector renders from the requested schema.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertChromium, launchBrowser, screenshot, withFailureScreenshot } from '../../utils/browser'
import type { LaunchedBrowser } from '../../utils/browser'
import { startFixture } from '../../utils/fixture'
import { clickToClose, deepLink, elicitationDialog, openTool, readResult, startInspector } from '../../utils/inspector'
import type { RunningInspector } from '../../utils/inspector'
import type { RunningFixture } from '../../utils/fixture'

const TEST_TIMEOUT = 120_000

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

/** The confirm tool's answer as the Results panel shows it: a text result, not JSON (no editor). */
async function confirmResult(): Promise<string> {
  const screen = page.getByTestId('tools-screen')
  await screen.getByRole('heading', { name: 'Results' }).waitFor({ timeout: 30_000 })
  const line = screen.getByText(/^(not )?confirmed$/)
  await line.waitFor({ timeout: 30_000 })
  return (await line.innerText()).trim()
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
      await openTool(page, 'ask_form')
      const screen = page.getByTestId('tools-screen')
      expect(Number(await screen.getAttribute('data-tool-count'))).toBeGreaterThanOrEqual(3)
      for (const tool of ['ask_form', 'ask_confirm', 'ask_url']) {
        await expect.poll(() => screen.getByRole('button', { name: tool, exact: true }).count()).toBe(1)
      }
    })
  }, TEST_TIMEOUT)

  it('renders the ask_form form; filling and submitting it returns the answers', async () => {
    await step('form-accept', async () => {
      await openTool(page, 'ask_form')
      await page.getByTestId('tools-screen').getByRole('button', { name: 'Execute Tool' }).click()
      const dialog = elicitationDialog(page)
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
      const result = await readResult(page)
      expect(result).toEqual({ action: 'accept', content: { name: 'Ada', plan: 'pro', subscribe: false } })
      const text = JSON.stringify(result)
      expect(text).toContain('Ada')
      expect(text).toContain('pro')
      expect(text).toContain('"subscribe":false')
      await screenshot(page, 'inspector-ask_form-result')
    })
  }, TEST_TIMEOUT)

  it('confirm(): the box starts unticked, Submit is enabled, and submitting it unticked is "no"', async () => {
    await step('confirm-unticked', async () => {
      await openTool(page, 'ask_confirm')
      await page.getByTestId('tools-screen').getByRole('button', { name: 'Execute Tool' }).click()
      const dialog = elicitationDialog(page)
      await dialog.waitFor({ timeout: 30_000 })
      await expect.poll(() => dialog.getByText('Delete everything?').count()).toBeGreaterThan(0)
      const box = dialog.getByRole('checkbox', { name: 'Confirm' })
      await box.waitFor()
      // `default: false` on a field that is not required: the Inspector shows it unticked and
      // lets the person submit (a required box with no default kept Submit disabled).
      expect(await box.isChecked()).toBe(false)
      expect(await dialog.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(false)
      await screenshot(page, 'inspector-ask_confirm-unticked')
      await clickToClose(dialog, 'Submit')
      expect(await confirmResult()).toBe('not confirmed')
    })
  }, TEST_TIMEOUT)

  it('confirm(): ticking the box and submitting is "yes"', async () => {
    await step('confirm-ticked', async () => {
      await openTool(page, 'ask_confirm')
      await page.getByTestId('tools-screen').getByRole('button', { name: 'Execute Tool' }).click()
      const dialog = elicitationDialog(page)
      await dialog.waitFor({ timeout: 30_000 })
      await dialog.getByRole('checkbox', { name: 'Confirm' }).check()
      await clickToClose(dialog, 'Submit')
      // The previous call's "not confirmed" is replaced by this one's answer.
      await expect.poll(() => confirmResult(), { timeout: 30_000 }).toBe('confirmed')
    })
  }, TEST_TIMEOUT)

  it('declining the ask_form form returns action decline', async () => {
    await step('form-decline', async () => {
      await openTool(page, 'ask_form')
      await page.getByTestId('tools-screen').getByRole('button', { name: 'Execute Tool' }).click()
      const dialog = elicitationDialog(page)
      await dialog.waitFor({ timeout: 30_000 })
      await clickToClose(dialog, 'Decline')
      expect(await readResult(page)).toEqual({ action: 'decline' })
    })
  }, TEST_TIMEOUT)

  it('shows the ask_url URL request; consenting without opening the page returns accept', async () => {
    await step('url-accept', async () => {
      await openTool(page, 'ask_url')
      await page.getByTestId('tools-screen').getByRole('button', { name: 'Execute Tool' }).click()
      const dialog = elicitationDialog(page)
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
      expect(await readResult(page)).toEqual({ action: 'accept', hasId: true })
      expect(browser!.blocked.filter(url => url.includes('example.com'))).toEqual([])
    })
  }, TEST_TIMEOUT)
})
