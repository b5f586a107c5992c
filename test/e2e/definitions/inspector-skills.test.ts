import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { openInspector } from '../../utils/inspector'
import type { ConnectedInspector } from '../../utils/inspector'

// The MCP Inspector 2.12 (web UI, headless Chromium) against the skills fixture: its Resources
// screen lists the skill files as resources and reads one; its Skills screen lists the skills
// through skills/list, runs its own conformance checks on an entry and verifies every file's
// digest. The Inspector sends no scopes, so the guarded skill stays out of both.
let app: RunningFixture
let connected: ConnectedInspector | undefined

beforeAll(async () => {
  app = await startFixture('skills')
}, 300_000)
afterAll(async () => {
  await connected?.browser.close()
  await connected?.inspector.stop()
  await app?.stop()
})

describe('the Inspector on an app with skills', () => {
  it('lists the skill files among the resources and reads a SKILL.md', async () => {
    connected = await openInspector(app.url)
    const { page } = connected
    await page.locator('label.mantine-SegmentedControl-label', { hasText: /^Resources$/ }).click()
    await page.getByText('URIs (7)').waitFor()
    const listed = await page.locator('body').innerText()
    for (const name of ['git-workflow', 'refunds', 'partial', 'layer-only', 'references/GUIDE.md', 'assets/logo.png', 'examples/email.md']) expect(listed).toContain(name)
    expect(listed).not.toContain('admin-ops')
    await page.getByText('layer-only', { exact: true }).first().click()
    await page.getByText('skill://layer-only/SKILL.md', { exact: true }).waitFor()
    await page.getByText('From the layer', { exact: true }).first().waitFor()
  }, 180_000)

  it('lists the skills, finds no conformance issue in an entry, and verifies each file\'s digest', async () => {
    const { page } = connected!
    await page.locator('label.mantine-SegmentedControl-label', { hasText: /^Skills$/ }).click()
    await page.getByText('4 skill(s) over 1 page(s)').waitFor()
    const listed = await page.locator('body').innerText()
    for (const uri of ['skill://acme/billing/refunds/SKILL.md', 'skill://acme/billing/refunds/partial/SKILL.md', 'skill://git-workflow/SKILL.md', 'skill://layer-only/SKILL.md']) expect(listed).toContain(uri)
    expect(listed).not.toContain('admin-ops')
    await page.getByText('skill://git-workflow/SKILL.md', { exact: true }).click()
    await page.getByText('0 ERROR(S), 0 WARNING(S)').waitFor()
    await page.getByText('3 FILE(S), 629 BYTES').waitFor()
    await page.getByRole('button', { name: 'Verify all' }).click()
    await expect.poll(() => page.getByText(/^verified$/i).count(), { timeout: 30_000 }).toBe(3)
    expect(await page.locator('body').innerText()).toContain('x-review:')
  }, 120_000)
})
