// `nuxi dev` on a throwaway copy of test/fixtures/dev with an MCP App view: editing the view, or a
// component it imports, rebuilds it (and only it), the console says so, and resources/read serves
// the new HTML without a restart.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postModern } from '../../utils/raw'
import { startDevApp } from '../../utils/dev-server'
import type { DevApp } from '../../utils/dev-server'

const POLL_MS = 60_000
let app: DevApp

const view = (text: string) => `<script setup lang="ts">
import Label from './parts/Label.vue'
const { connected } = useMcpView()
</script>

<template>
  <p>${text} <Label :on="connected" /></p>
</template>
`
const label = (text: string) => `<script setup lang="ts">
defineProps<{ on: boolean }>()
</script>

<template>
  <span>${text}</span>
</template>
`

/** The view's HTML as a fresh stateless request reads it (undefined while the server rebuilds). */
async function readView(): Promise<string | undefined> {
  try {
    const { message } = await postModern(app.url, 'resources/read', { uri: 'ui://card' })
    const contents = message.result?.contents
    return Array.isArray(contents) && typeof contents[0]?.text === 'string' ? contents[0].text : undefined
  }
  catch {
    return undefined
  }
}

async function waitForView(what: string, accept: (html: string) => boolean): Promise<void> {
  const deadline = Date.now() + POLL_MS
  for (;;) {
    const html = await readView()
    if (html !== undefined && accept(html)) return
    if (!app.alive()) throw new Error(`nuxi dev exited while waiting for ${what}:\n${app.log()}`)
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.\n--- nuxi dev output ---\n${app.log()}`)
    await new Promise(r => setTimeout(r, 500))
  }
}

beforeAll(async () => {
  app = await startDevApp({
    'app/mcp/card.vue': view('first text'),
    'app/mcp/parts/Label.vue': label('first label'),
    'server/mcp/tools/show-card.ts': `export default defineMcpTool({ description: 'Shows a card', view: 'card', handler: () => 'shown' })\n`,
  })
  await waitForView('the first build of the view', html => html.includes('first text'))
}, 180_000)

afterAll(() => app?.stop(), 30_000)

describe('nuxi dev rebuilds an MCP App view when its sources change', () => {
  it('serves the view built at startup, with the component it imports', async () => {
    const html = await readView()
    expect(html).toContain('first label')
    expect(app.log()).not.toMatch(/rebuilt from/)
  })

  it('rebuilds the view after an edit, and says so', async () => {
    await writeFile(join(app.dir, 'app/mcp/card.vue'), view('second text'))
    await waitForView('the edited view', html => html.includes('second text'))
    expect(app.log()).toMatch(/MCP App ui:\/\/card rebuilt from app\/mcp\/card\.vue in \d+ ms/)
  }, POLL_MS + 10_000)

  it('rebuilds the view when a component it imports changes', async () => {
    await writeFile(join(app.dir, 'app/mcp/parts/Label.vue'), label('second label'))
    await waitForView('the edited component', html => html.includes('second label') && html.includes('second text'))
  }, POLL_MS + 10_000)
})
