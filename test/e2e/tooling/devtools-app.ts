// The `nuxi dev` app the DevTools tab is tested on (devtools.test.ts): two endpoints, `/mcp` and
// `/mcp/admin` (a `server/mcp/admin/` folder), with tools that ask the person; and what the test
// reads the tab with.
import { request } from 'node:http'
import type { Locator, Page } from 'playwright-core'
import { connectLegacy } from '../../utils/clients'
import type { DevApp } from '../../utils/dev-server'

const ASK_TOOL = `import { z } from 'zod'

export default defineMcpTool({
  name: 'pick_color',
  description: 'Asks for a color',
  handler: async () => {
    const r = await useMcpElicitation().form({ message: 'Which color?', schema: { color: z.enum(['red', 'blue']) } })
    return r.action === 'accept' ? r.content.color : r.action
  },
})
`

const TWO_QUESTIONS_TOOL = `import { z } from 'zod'

export default defineMcpTool({
  name: 'pick_two',
  description: 'Asks twice',
  handler: async () => {
    const elicit = useMcpElicitation()
    const first = await elicit.form({ message: 'First?', schema: { a: z.string() } })
    const second = await elicit.form({ message: 'Second?', schema: { b: z.string() } })
    return [first.action, second.action].join(',')
  },
})
`

const TASK_TOOL = `export default defineMcpTool({
  name: 'ship_later',
  description: 'Ships as a task, after a confirmation',
  execution: { taskSupport: 'optional' },
  handler: async () => ((await useMcpElicitation().confirm('Ship it now?')) ? 'shipped' : 'kept'),
})
`

const REFUND_TOOL = `import { z } from 'zod'

export default defineMcpTool({
  name: 'refund',
  description: 'Refunds an order after asking how much',
  handler: async () => {
    const r = await useMcpElicitation().form({ message: 'Refund how much?', schema: { amount: z.number() } })
    return r.action === 'accept' ? 'refunded ' + r.content.amount : r.action
  },
})
`

const AUDIT_PROMPT = `export default defineMcpPrompt({
  name: 'audit',
  description: 'Reviews the refunds of a day',
  handler: async () => 'Review the refunds of today.',
})
`

// An MCP App view, and the tool that shows it: the tab lists views with the tools that show them.
const CARD_VIEW = `<script setup lang="ts">
const { connected } = useMcpView()
</script>

<template>
  <p>Card {{ connected }}</p>
</template>
`

const CARD_TOOL = `export default defineMcpTool({ name: 'show_card', description: 'Shows a card', view: 'card', handler: () => 'shown' })
`

/** The files written over test/fixtures/dev: the default endpoint's tools and view, and the admin endpoint's definitions. */
export const DEVTOOLS_APP_FILES: Record<string, string> = {
  'server/mcp/tools/pick-color.ts': ASK_TOOL,
  'server/mcp/tools/pick-two.ts': TWO_QUESTIONS_TOOL,
  'server/mcp/tools/ship-later.ts': TASK_TOOL,
  'server/mcp/tools/show-card.ts': CARD_TOOL,
  'app/mcp/card.vue': CARD_VIEW,
  'server/mcp/admin/tools/refund.ts': REFUND_TOOL,
  'server/mcp/admin/prompts/audit.ts': AUDIT_PROMPT,
}

/** A GET with headers fetch() cannot set (Host), as a DNS-rebinding page's request would arrive. */
export function rawRequest(url: string, headers: Record<string, string>, method = 'GET'): Promise<{ status?: number, body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, method }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => { body += chunk.toString() })
      res.on('end', () => resolve({ status: res.statusCode, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** Waits until `nuxi dev` serves MCP at `url` (its first build takes a while). */
export async function waitForMcp(app: DevApp, url: URL): Promise<void> {
  const deadline = Date.now() + 150_000
  for (;;) {
    try {
      const client = await connectLegacy(url, { connectTimeoutMs: 8000 })
      await client.close()
      return
    }
    catch (error) {
      if (!app.alive() || Date.now() > deadline) throw new Error(`nuxi dev did not serve MCP at ${url.href}: ${String(error)}\n${app.log()}`)
      await new Promise(r => setTimeout(r, 500))
    }
  }
}

/** The section of the tab that lists the endpoint at `route`. */
export function endpointSection(page: Page, route: string): Locator {
  return page.locator(`section.endpoint[data-route="${route}"]`)
}

/** The rows of one of an endpoint's lists (`questions`, `calls`, `tasks`, `tools`, …), without the "nothing yet" row. */
export function rowsOf(page: Page, route: string, list: string, hasText?: string | RegExp): Locator {
  return endpointSection(page, route).locator(`.list.${list} tbody tr:not(.empty)`, hasText === undefined ? {} : { hasText })
}
