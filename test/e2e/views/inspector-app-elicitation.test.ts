// App-rendered elicitation (SEP-3118, draft) in the real MCP Inspector 2.12 web UI, headless
// Debian Chromium, against the built `views` fixture, in both eras. With the Inspector's defaults
// (it advertises the apps extension with `elicitation: {}`), book-stay's form is answered inside
// the date-range view; with the "MCP Apps UI" extension turned off, the Inspector shows its own
// form for the same question, and the same tool completes.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertChromium, screenshot, withFailureScreenshot } from '../../utils/browser'
import type { LaunchedBrowser } from '../../utils/browser'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { clickToClose, elicitationDialog, openInspector, openTool } from '../../utils/inspector'
import type { RunningInspector } from '../../utils/inspector'

const CASES = [
  { era: 'legacy', version: '2025-11-25', apps: true },
  { era: 'modern', version: '2026-07-28', apps: true },
  { era: 'legacy', version: '2025-11-25', apps: false },
  { era: 'modern', version: '2026-07-28', apps: false },
] as const

let fixture: RunningFixture

beforeAll(async () => {
  assertChromium()
  fixture = await startFixture('views')
}, 180_000)

afterAll(async () => {
  await fixture?.stop()
})

describe.each(CASES)('MCP Inspector web UI, $version, MCP Apps UI advertised: $apps', ({ era, version, apps }) => {
  let inspector: RunningInspector | undefined
  let browser: LaunchedBrowser | undefined
  let page: Page
  const name = `inspector-app-elicitation-${era}-${apps ? 'in-app' : 'plain'}`

  beforeAll(async () => {
    // The deep link connects with the settings of the catalog's `deep-link` server.
    const settings = { type: 'streamable-http', url: fixture.url.href, ...(era === 'modern' && { protocolEra: 'modern' }), ...(!apps && { advertisedExtensions: { 'io.modelcontextprotocol/ui': false } }) }
    ;({ inspector, browser, page } = await openInspector(fixture.url, { servers: { 'deep-link': settings } }))
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await inspector?.stop()
  }, 60_000)

  it(apps ? 'answers book-stay\'s form inside the date-range view, and the tool shows the typed answer' : 'shows its own form for the same question, and the same tool completes', async () => {
    await withFailureScreenshot(page, name, async () => {
      await expect.poll(() => page.getByText(`MCP ${version}`, { exact: true }).count(), { timeout: 30_000 }).toBeGreaterThan(0)
      await openTool(page, 'book-stay')
      await page.getByTestId('tools-screen').getByRole('button', { name: 'Execute Tool' }).click()
      if (apps) {
        const modal = page.getByTestId('app-elicitation')
        await modal.waitFor({ timeout: 30_000 })
        const view = modal.frameLocator('iframe').first().frameLocator('iframe').first()
        await expect.poll(() => view.getByTestId('question').innerText(), { timeout: 30_000 }).toBe('When do you arrive and leave?')
        expect(await view.getByTestId('fields').innerText()).toBe('from, to')
        await screenshot(page, name)
        await view.getByTestId('book').click()
        await modal.waitFor({ state: 'hidden', timeout: 30_000 })
      }
      else {
        const dialog = elicitationDialog(page)
        await dialog.waitFor({ timeout: 30_000 })
        await expect.poll(() => dialog.getByText('When do you arrive and leave?').count()).toBeGreaterThan(0)
        expect(await page.getByTestId('app-elicitation').count()).toBe(0)
        await dialog.getByRole('textbox', { name: 'from' }).fill('2026-12-24')
        await dialog.getByRole('textbox', { name: 'to' }).fill('2026-12-27')
        await screenshot(page, name)
        await clickToClose(dialog, 'Submit')
      }
      const screen = page.getByTestId('tools-screen')
      await screen.getByRole('heading', { name: 'Results' }).waitFor({ timeout: 30_000 })
      await expect.poll(() => screen.innerText(), { timeout: 30_000 }).toContain('Booked 2026-12-24 to 2026-12-27')
      await screenshot(page, `${name}-result`)
    })
  }, 120_000)
})
