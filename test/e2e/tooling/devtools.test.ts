// The "MCP" DevTools tab on `nuxi dev`: its page, in headless Debian chromium, lists the
// discovered definitions and follows elicitations of both eras to their outcome; its data
// endpoint keeps the endpoint's Host/Origin rules. Plus: the module registers the tab with
// Nuxt DevTools (a real Nuxt instance in dev mode, asked for its custom tabs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { request } from 'node:http'
import { loadNuxt } from '@nuxt/kit'
import type { ModuleCustomTab } from '@nuxt/devtools-kit/types'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import { assertChromium, launchBrowser, screenshot, withFailureScreenshot } from '../../utils/browser'
import type { LaunchedBrowser } from '../../utils/browser'
import { startDevApp } from '../../utils/dev-server'
import type { DevApp } from '../../utils/dev-server'
import { openTaskSession } from '../../../scripts/mcp-task-clients.mjs'

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

let app: DevApp
let browser: LaunchedBrowser
let page: Page
let pageUrl: string

function rawGet(url: string, headers: Record<string, string>): Promise<{ status?: number, body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => { body += chunk.toString() })
      res.on('end', () => resolve({ status: res.statusCode, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

async function waitForMcp(): Promise<void> {
  const deadline = Date.now() + 150_000
  for (;;) {
    try {
      const client = await connectLegacy(app.url, { connectTimeoutMs: 8000 })
      await client.close()
      return
    }
    catch (error) {
      if (!app.alive() || Date.now() > deadline) throw new Error(`nuxi dev did not serve MCP: ${String(error)}\n${app.log()}`)
      await new Promise(r => setTimeout(r, 500))
    }
  }
}

beforeAll(async () => {
  assertChromium()
  app = await startDevApp({ 'server/mcp/tools/pick-color.ts': ASK_TOOL, 'server/mcp/tools/pick-two.ts': TWO_QUESTIONS_TOOL, 'server/mcp/tools/ship-later.ts': TASK_TOOL })
  await waitForMcp()
  pageUrl = new URL('/__mcp-elicitation/devtools', app.url).href
  browser = await launchBrowser()
  page = browser.page
  page.setDefaultTimeout(20_000)
}, 240_000)

afterAll(async () => {
  await browser?.close()
  await app?.stop()
}, 30_000)

describe('the MCP DevTools tab', () => {
  it('lists the discovered tools with their files', async () => {
    const response = await page.goto(pageUrl)
    expect(response?.headers()['content-security-policy']).toContain("script-src 'nonce-")
    await withFailureScreenshot(page, 'devtools-tools', async () => {
      const tools = page.locator('#tools')
      await expect.poll(() => tools.innerText()).toContain('pick_color')
      const text = await tools.innerText()
      expect(text).toContain('Asks for a color')
      expect(text).toContain('server/mcp/tools/pick-color.ts')
      expect(text).toContain('echo')
    })
  })

  it('follows a legacy elicitation to the person\'s answer', async () => {
    const client = await connectLegacy(app.url, { answer: () => ({ action: 'accept', content: { color: 'blue' } }) })
    try {
      expect(textOf(await client.callTool({ name: 'pick_color', arguments: {} }))).toBe('blue')
    }
    finally {
      await client.close()
    }
    await withFailureScreenshot(page, 'devtools-legacy', async () => {
      const row = page.locator('#elicitations tr', { hasText: 'legacy' }).first()
      await expect.poll(() => row.innerText(), { timeout: 10_000 }).toContain('accept')
      const text = await row.innerText()
      expect(text).toContain('pick_color (tools/call)')
      expect(text).toContain('Which color?')
      expect(text).toContain('"color": "blue"')
    })
  })

  it('shows a modern flow as sent in input_required, then answered on the retry', async () => {
    const client = await connectModern(app.url, { answer: () => ({ action: 'decline' }) })
    try {
      expect(textOf(await client.callTool({ name: 'pick_color', arguments: {} }))).toBe('decline')
    }
    finally {
      await client.close()
    }
    await withFailureScreenshot(page, 'devtools-modern', async () => {
      const rows = page.locator('#elicitations tr', { hasText: 'modern' })
      await expect.poll(() => rows.allInnerTexts(), { timeout: 10_000 }).toEqual([
        expect.stringContaining('decline'),
        expect.stringContaining('sent'),
      ])
      await screenshot(page, 'devtools-tab')
    })
  })

  it('lists a task with what it waits for, then its answer and end; the console tells each transition', async () => {
    let answer: () => void = () => {}
    const answered = new Promise<void>((resolve) => {
      answer = resolve
    })
    const { session, close } = await openTaskSession(app.url, {
      era: 'modern',
      onInput: async () => {
        await answered
        return { action: 'accept', content: { confirm: true } }
      },
    })
    try {
      const execution = await session.callTool('ship_later', {}, { task: { preference: 'prefer' } })
      if (execution.kind !== 'task') throw new Error(`expected a task, got ${execution.kind}`)
      const taskId = execution.handle.taskId
      const settled = execution.settle()
      await withFailureScreenshot(page, 'devtools-task-waiting', async () => {
        const row = page.locator('#tasks tr', { hasText: taskId })
        await expect.poll(() => row.innerText(), { timeout: 10_000 }).toContain('input_required')
        expect(await row.innerText()).toContain('Ship it now?')
      })
      answer()
      await settled
      await withFailureScreenshot(page, 'devtools-task-done', async () => {
        const row = page.locator('#tasks tr', { hasText: taskId })
        await expect.poll(() => row.innerText(), { timeout: 10_000 }).toContain('completed')
        expect(await row.innerText()).toMatch(/"confirm": true/)
        // The question is listed with the elicitations too, in the task's era.
        const asked = page.locator('#elicitations tr', { hasText: 'ship_later' }).first()
        expect(await asked.innerText()).toMatch(/modern.*Ship it now\?.*accept/s)
        await screenshot(page, 'devtools-tasks')
      })
      expect(app.log()).toContain(`task ${taskId} (ship_later): working → input_required · Waiting for input: Ship it now?`)
      expect(app.log()).toContain(`task ${taskId} (ship_later): input_required → working`)
      expect(app.log()).toContain(`task ${taskId} (ship_later): working → completed`)
    }
    finally {
      answer()
      await close()
    }
  })

  it('lists each question of a modern flow once, though every round re-runs the handler', async () => {
    const content = (message: unknown): Record<string, string> => (message === 'First?' ? { a: 'x' } : { b: 'y' })
    const client = await connectModern(app.url, { answer: params => ({ action: 'accept', content: content(params.message) }) })
    try {
      expect(textOf(await client.callTool({ name: 'pick_two', arguments: {} }))).toBe('accept,accept')
    }
    finally {
      await client.close()
    }
    await withFailureScreenshot(page, 'devtools-rounds', async () => {
      const rows = page.locator('#elicitations tr', { hasText: 'pick_two' })
      await expect.poll(() => rows.allInnerTexts(), { timeout: 10_000 }).toEqual([
        expect.stringMatching(/Second\?.*accept/s),
        expect.stringMatching(/Second\?.*sent/s),
        expect.stringMatching(/First\?.*accept/s),
        expect.stringMatching(/First\?.*sent/s),
      ])
    })
  })

  it('times a modern answer from the round that asked, and shows an invalid answer with what was wrong', async () => {
    let round = 0
    const client = await connectModern(app.url, {
      answer: async () => {
        round += 1
        // The person takes a while over the second try: the row must show that time, not 0 ms.
        if (round === 2) await new Promise(resolve => setTimeout(resolve, 400))
        return { action: 'accept', content: { color: round === 1 ? 'green' : 'blue' } }
      },
    })
    try {
      expect(textOf(await client.callTool({ name: 'pick_color', arguments: {} }))).toBe('blue')
    }
    finally {
      await client.close()
    }
    await withFailureScreenshot(page, 'devtools-invalid', async () => {
      const rows = page.locator('#elicitations tr', { hasText: 'modern' })
      await expect.poll(async () => (await rows.allInnerTexts()).slice(0, 3), { timeout: 10_000 }).toEqual([
        expect.stringContaining('accept'),
        expect.stringContaining('invalid, asked again'),
        expect.stringContaining('sent'),
      ])
      const [accepted, invalid] = await rows.allInnerTexts()
      expect(Number(/(\d+) ms/.exec(accepted!)?.[1])).toBeGreaterThanOrEqual(400)
      expect(accepted).toContain('"color": "blue"')
      expect(invalid).toContain('"color": "green"')
      expect(invalid).toMatch(/color/)
    })
  })

  it('shows the content of an invalid legacy answer next to its error', async () => {
    const client = await connectLegacy(app.url, { answer: () => ({ action: 'accept', content: { color: 'green' } }) })
    try {
      const result = await client.callTool({ name: 'pick_color', arguments: {} })
      expect(result.isError).toBe(true)
    }
    finally {
      await client.close()
    }
    await withFailureScreenshot(page, 'devtools-legacy-invalid', async () => {
      const row = page.locator('#elicitations tr', { hasText: 'legacy' }).first()
      await expect.poll(() => row.innerText(), { timeout: 10_000 }).toContain('invalid-response')
      expect(await row.innerText()).toContain('"color": "green"')
    })
  })

  it('refuses its data to a foreign Host or Origin, as the MCP endpoint does', async () => {
    // fetch() cannot set Host: a raw request, as a DNS-rebinding page's would arrive. (In dev,
    // Vite's own host check may answer first; either way nothing is served.)
    const foreignHost = await rawGet(`${pageUrl}.json`, { host: 'evil.example' })
    expect(foreignHost.status).toBe(403)
    expect(foreignHost.body).not.toContain('pick_color')
    // A browser on the network (`nuxi dev --host`) names this machine's address, not localhost.
    const network = await rawGet(`${pageUrl}.json`, { host: `192.0.2.10:${app.url.port}` })
    expect(network.status).toBe(403)
    expect(network.body).toContain('served to this machine only')
    const foreignOrigin = await rawGet(`${pageUrl}.json`, { origin: 'https://evil.example' })
    expect(foreignOrigin.status).toBe(403)
    expect(foreignOrigin.body).toContain('mcp.allowedOrigins')
    const served = await fetch(`${pageUrl}.json`)
    expect((await served.json()).tools.map((tool: { name: string }) => tool.name).sort()).toEqual(['echo', 'pick_color', 'pick_two', 'ship_later'])
  })

  it('registers the tab with Nuxt DevTools', async () => {
    const nuxt = await loadNuxt({ cwd: app.dir, dev: true, ready: true, overrides: { devtools: { enabled: false } } })
    try {
      const tabs: ModuleCustomTab[] = []
      await nuxt.callHook('devtools:customTabs', tabs)
      expect(tabs).toContainEqual(expect.objectContaining({ name: 'mcp-elicitation', view: expect.objectContaining({ type: 'iframe', src: '/__mcp-elicitation/devtools' }) }))
    }
    finally {
      await nuxt.close()
    }
  }, 60_000)
})
