// The real MCP Inspector web UI (2.12) as a host of tasks: connected in the 2026-07-28 era (it
// advertises the tasks extension there and lets the server decide), it runs task_deploy, which the
// server makes a task; the task's question appears in the Inspector's elicitation dialog, is
// answered in the page (through tasks/update), and the task's result shows. Headless Debian chromium.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertChromium, screenshot, withFailureScreenshot } from '../../utils/browser'
import type { LaunchedBrowser } from '../../utils/browser'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { clickToClose, elicitationDialog, openInspector, openTool } from '../../utils/inspector'
import type { RunningInspector } from '../../utils/inspector'

let fixture: RunningFixture | undefined
let inspector: RunningInspector | undefined
let browser: LaunchedBrowser | undefined
let page: Page

beforeAll(async () => {
  assertChromium()
  fixture = await startFixture('elicitation')
  // The deep link connects with the settings of the catalog's `deep-link` server: the 2026-07-28 era.
  ;({ inspector, browser, page } = await openInspector(fixture.url, { servers: { 'deep-link': { type: 'streamable-http', url: fixture.url.href, protocolEra: 'modern' } } }))
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await inspector?.stop()
  await fixture?.stop()
}, 60_000)

describe('MCP Inspector web UI, 2026-07-28, tasks', () => {
  it('runs a task, answers its question in the page, and shows the task\'s result', async () => {
    await withFailureScreenshot(page, 'inspector-task', async () => {
      await expect.poll(() => page.getByText('MCP 2026-07-28', { exact: true }).count(), { timeout: 30_000 }).toBeGreaterThan(0)
      await openTool(page, 'task_deploy', { service: 'web' })
      await page.getByTestId('tools-screen').getByRole('button', { name: 'Execute Tool' }).click()
      const dialog = elicitationDialog(page)
      await dialog.waitFor({ timeout: 30_000 })
      // The Inspector says the question came from a task in input_required (answered by tasks/update).
      await expect.poll(() => dialog.getByText(/This task reached input_required/).count()).toBeGreaterThan(0)
      await expect.poll(() => dialog.getByText('Where should web go?').count()).toBeGreaterThan(0)
      await dialog.getByRole('textbox', { name: 'env' }).click()
      await page.getByRole('listbox', { name: 'env' }).getByRole('option', { name: 'production', exact: true }).click()
      await dialog.getByRole('textbox', { name: 'replicas' }).fill('2')
      await screenshot(page, 'inspector-task-question')
      await clickToClose(dialog, 'Submit')
      // A text result (not JSON) shows as plain text in the Results panel.
      const screen = page.getByTestId('tools-screen')
      await screen.getByRole('heading', { name: 'Results' }).waitFor({ timeout: 30_000 })
      await expect.poll(() => screen.innerText(), { timeout: 30_000 }).toMatch(/Deployed build-web to production with 2 replicas \(task [\w-]+\)\./)
      await screenshot(page, 'inspector-task-result')
    })
  }, 120_000)
})
