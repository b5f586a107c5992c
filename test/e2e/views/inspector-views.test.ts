// The real MCP Inspector web UI (2.12) as an MCP Apps host, in headless Debian Chromium, against
// the built `views` fixture, in both eras: the `greet` tool's view (app/mcp/greeting.vue) renders in
// the Inspector's double-iframe sandbox with the call's input and result in it, and its button
// calls another server tool (`count-visit`) through the host, whose answer shows in the view; and
// `weather-card`, whose tool is declared inside the view, renders its handler's data.
import type { FrameLocator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertChromium, screenshot, withFailureScreenshot } from '../../utils/browser'
import type { LaunchedBrowser } from '../../utils/browser'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { openInspector } from '../../utils/inspector'
import type { RunningInspector } from '../../utils/inspector'

const ERAS = [
  { era: 'legacy', version: '2025-11-25', servers: undefined },
  { era: 'modern', version: '2026-07-28', servers: (url: URL) => ({ 'deep-link': { type: 'streamable-http', url: url.href, protocolEra: 'modern' } }) },
] as const

let fixture: RunningFixture

beforeAll(async () => {
  assertChromium()
  fixture = await startFixture('views')
}, 180_000)

afterAll(async () => {
  await fixture?.stop()
})

/** The view's own document: UI page → the sandbox proxy (its own origin) → the view's srcdoc frame. */
function viewFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe').first().frameLocator('iframe').first()
}

describe.each(ERAS)('MCP Inspector web UI as an MCP Apps host, $version', ({ era, version, servers }) => {
  let inspector: RunningInspector | undefined
  let browser: LaunchedBrowser | undefined
  let page: Page

  beforeAll(async () => {
    ;({ inspector, browser, page } = await openInspector(fixture.url, servers ? { servers: servers(fixture.url) } : {}))
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await inspector?.stop()
  }, 60_000)

  it('renders the tool\'s view with its input and result, and a button in it calls a server tool', async () => {
    await withFailureScreenshot(page, `inspector-app-${era}`, async () => {
      // The Servers screen names the negotiated revision: this describe's era.
      await expect.poll(() => page.getByText(`MCP ${version}`, { exact: true }).count(), { timeout: 30_000 }).toBeGreaterThan(0)
      await page.locator('label.mantine-SegmentedControl-label', { hasText: /^Apps$/ }).click()
      await page.getByRole('button', { name: /^greet/ }).click()
      await page.getByRole('textbox', { name: 'name' }).fill('Ada')
      await page.getByRole('button', { name: 'Open App' }).click()

      const view = viewFrame(page)
      await expect.poll(() => view.getByTestId('badge').innerText(), { timeout: 30_000 }).toBe('connected')
      await expect.poll(() => view.getByTestId('input').innerText()).toBe('Input: Ada')
      await expect.poll(() => view.getByTestId('result').innerText()).toBe('Hello, Ada!')
      await screenshot(page, `inspector-app-${era}`)

      await view.getByTestId('count').click()
      await expect.poll(() => view.getByTestId('visits').innerText(), { timeout: 30_000 }).toMatch(/^Visit \d+ by Ada$/)
      await screenshot(page, `inspector-app-${era}-tool-call`)
    })
  }, 120_000)

  it('renders a view that declares its own tool (@nuxtjs/mcp-toolkit\'s way), with the handler\'s data', async () => {
    await withFailureScreenshot(page, `inspector-app-${era}-view-tool`, async () => {
      await page.locator('label.mantine-SegmentedControl-label', { hasText: /^Apps$/ }).click()
      await page.getByRole('button', { name: /^weather-card/ }).click()
      await page.getByRole('textbox', { name: 'city' }).fill('Lyon')
      await page.getByRole('button', { name: 'Open App' }).click()
      await expect.poll(() => viewFrame(page).getByTestId('weather').innerText(), { timeout: 30_000 }).toMatch(/^Lyon: \d+ °C$/)
      await screenshot(page, `inspector-app-${era}-view-tool`)
    })
  }, 120_000)
})
