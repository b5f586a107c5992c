// The "MCP" DevTools tab on `nuxi dev`, an app with two endpoints (`/mcp` and `/mcp/admin`): its
// page, in headless Debian chromium, lists each endpoint with its URL, Inspector link and
// definitions (before it served anything), the links and commands that add it to Cursor, VS Code
// and Claude Code (decoded, with their copy buttons), and follows calls and questions of both eras, heard
// through the app's `mcp:call` / `mcp:question` hooks, under the endpoint that served them; it
// filters, clears, and fits a 500 px panel. Its data keeps the endpoint's Host/Origin rules, and
// clearing needs the page's own header. Plus: the module registers the tab with Nuxt DevTools (a
// real Nuxt instance in dev mode, asked for its custom tabs), with an icon it serves itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { loadNuxt } from '@nuxt/kit'
import type { ModuleCustomTab } from '@nuxt/devtools-kit/types'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import { assertChromium, launchBrowser, screenshot, withFailureScreenshot } from '../../utils/browser'
import type { LaunchedBrowser } from '../../utils/browser'
import { startDevApp } from '../../utils/dev-server'
import { startInspector } from '../../utils/inspector'
import type { DevApp } from '../../utils/dev-server'
import { openTaskSession } from '../../../scripts/mcp-task-clients.mjs'
import { readCursorLink, readVscodeLink, shellWords } from '../../utils/install-links'
import { DEVTOOLS_APP_FILES, endpointSection, rawRequest, rowsOf, waitForMcp } from './devtools-app'

let app: DevApp
let browser: LaunchedBrowser
let page: Page
let pageUrl: string
let adminUrl: URL

beforeAll(async () => {
  assertChromium()
  app = await startDevApp(DEVTOOLS_APP_FILES)
  adminUrl = new URL('/mcp/admin', app.url)
  await waitForMcp(app, app.url)
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
  it('lists every endpoint with its URL and its own definitions, also one that has served nothing yet', async () => {
    const response = await page.goto(pageUrl)
    expect(response?.headers()['content-security-policy']).toContain("script-src 'nonce-")
    await withFailureScreenshot(page, 'devtools-endpoints', async () => {
      const tools = endpointSection(page, '/mcp').locator('.list.tools')
      await expect.poll(() => tools.innerText()).toContain('pick_color')
      const text = await tools.innerText()
      expect(text).toContain('Asks for a color')
      expect(text).toContain('server/mcp/tools/pick-color.ts')
      expect(text).toContain('echo')
      expect(text).not.toContain('refund')
      expect(await endpointSection(page, '/mcp').locator('h2 .url').innerText()).toBe(app.url.href)
      // Nothing has reached /mcp/admin yet: it is listed all the same, with its own definitions.
      const admin = endpointSection(page, '/mcp/admin')
      expect(await admin.locator('h2 .url').innerText()).toBe(adminUrl.href)
      expect(await rowsOf(page, '/mcp/admin', 'tools').allInnerTexts()).toEqual([expect.stringMatching(/refund.*Refunds an order after asking how much.*server\/mcp\/admin\/tools\/refund\.ts/s)])
      expect(await rowsOf(page, '/mcp/admin', 'prompts').allInnerTexts()).toEqual([expect.stringContaining('audit')])
      expect(await rowsOf(page, '/mcp/admin', 'calls').count()).toBe(0)
      expect(await rowsOf(page, '/mcp', 'prompts').count()).toBe(0)
    })
  })

  it('lists the MCP App views with the tools that show them', async () => {
    await withFailureScreenshot(page, 'devtools-views', async () => {
      expect(await rowsOf(page, '/mcp', 'views').allInnerTexts()).toEqual([expect.stringMatching(/card.*ui:\/\/card.*show_card.*app\/mcp\/card\.vue/s)])
      expect(await rowsOf(page, '/mcp', 'tools', 'show_card').innerText()).toContain('(view ui://card)')
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
      const row = rowsOf(page, '/mcp', 'questions', 'legacy').first()
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
      const rows = rowsOf(page, '/mcp', 'questions', 'modern')
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
        const row = rowsOf(page, '/mcp', 'tasks', taskId)
        await expect.poll(() => row.innerText(), { timeout: 10_000 }).toContain('input_required')
        expect(await row.innerText()).toContain('Ship it now?')
      })
      answer()
      await settled
      await withFailureScreenshot(page, 'devtools-task-done', async () => {
        const row = rowsOf(page, '/mcp', 'tasks', taskId)
        await expect.poll(() => row.innerText(), { timeout: 10_000 }).toContain('completed')
        expect(await row.innerText()).toMatch(/"confirm": true/)
        // The question is listed with the elicitations too, in the task's era.
        const asked = rowsOf(page, '/mcp', 'questions', 'ship_later').first()
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
      const rows = rowsOf(page, '/mcp', 'questions', 'pick_two')
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
      const rows = rowsOf(page, '/mcp', 'questions', 'modern')
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
      const row = rowsOf(page, '/mcp', 'questions', 'legacy').first()
      await expect.poll(() => row.innerText(), { timeout: 10_000 }).toContain('invalid-response')
      expect(await row.innerText()).toContain('"color": "green"')
    })
  })

  it('lists a call and a question on each endpoint under that endpoint, in both eras', async () => {
    const legacy = await connectLegacy(adminUrl, { answer: () => ({ action: 'accept', content: { amount: 12 } }) })
    try {
      expect(textOf(await legacy.callTool({ name: 'refund', arguments: {} }))).toBe('refunded 12')
    }
    finally {
      await legacy.close()
    }
    const modern = await connectModern(adminUrl, { answer: () => ({ action: 'decline' }) })
    try {
      expect(textOf(await modern.callTool({ name: 'refund', arguments: {} }))).toBe('decline')
    }
    finally {
      await modern.close()
    }
    await withFailureScreenshot(page, 'devtools-admin', async () => {
      const questions = rowsOf(page, '/mcp/admin', 'questions')
      await expect.poll(() => questions.allInnerTexts(), { timeout: 10_000 }).toEqual([
        expect.stringMatching(/modern.*refund \(tools\/call\).*Refund how much\?.*amount.*decline/s),
        expect.stringMatching(/modern.*refund.*sent/s),
        expect.stringMatching(/legacy.*refund.*Refund how much\?.*accept.*"amount": 12/s),
      ])
      // A modern call that asked ends a round with input-required, and the retry with its outcome.
      expect(await rowsOf(page, '/mcp/admin', 'calls').allInnerTexts()).toEqual([
        expect.stringMatching(/modern.*tools\/call refund.*ok.*\d+ ms/s),
        expect.stringMatching(/modern.*tools\/call refund.*input-required/s),
        expect.stringMatching(/legacy.*tools\/call refund.*ok/s),
      ])
      // The default endpoint's lists hold its own calls only, and the admin's hold none of them.
      expect(await rowsOf(page, '/mcp', 'calls', 'pick_color').count()).toBeGreaterThan(0)
      expect(await rowsOf(page, '/mcp', 'calls', 'refund').count()).toBe(0)
      expect(await rowsOf(page, '/mcp', 'questions', 'refund').count()).toBe(0)
      expect(await rowsOf(page, '/mcp/admin', 'questions', 'pick_color').count()).toBe(0)
    })
  })

  it('narrows the lists to one endpoint, and to the rows holding a text', async () => {
    await withFailureScreenshot(page, 'devtools-filter', async () => {
      await page.selectOption('#endpoint', '/mcp/admin')
      expect(await endpointSection(page, '/mcp').isHidden()).toBe(true)
      expect(await endpointSection(page, '/mcp/admin').isVisible()).toBe(true)
      await page.selectOption('#endpoint', '')
      await page.fill('#filter', 'decline')
      // The filter holds across the page's refreshes (it polls every 2 s; the status says when).
      const status = await page.locator('#status').innerText()
      await expect.poll(() => page.locator('#status').innerText(), { timeout: 10_000 }).not.toBe(status)
      const visible = (route: string, list: string) => rowsOf(page, route, list).filter({ visible: true }).allInnerTexts()
      expect(await visible('/mcp/admin', 'questions')).toEqual([expect.stringContaining('decline')])
      expect(await visible('/mcp', 'questions')).toEqual([expect.stringMatching(/pick_color.*decline/s)])
      expect(await visible('/mcp/admin', 'tools')).toEqual([])
      await page.fill('#filter', '')
      expect((await visible('/mcp/admin', 'questions')).length).toBe(3)
    })
  })

  it('links each endpoint to the MCP Inspector with its URL filled in, and gives the command that opens it there', async () => {
    for (const url of [app.url, adminUrl]) {
      const section = endpointSection(page, url.pathname)
      const link = new URL((await section.locator('a.inspector').getAttribute('href'))!)
      expect(link.origin).toBe('http://localhost:6274')
      expect(link.searchParams.get('serverUrl')).toBe(url.href)
      expect(link.searchParams.get('transport')).toBe('streamable-http')
      expect(await section.locator('code.inspector-command').innerText()).toBe(`npx @modelcontextprotocol/inspector --transport http --server-url ${url.href}`)
    }
    // The command as the tab gives it, run with the real Inspector 2.12: its page lists the admin endpoint.
    const command = await endpointSection(page, '/mcp/admin').locator('code.inspector-command').innerText()
    const inspector = await startInspector({ args: command.split(' ').slice(2) })
    const inspectorPage = await browser.context.newPage()
    try {
      await inspectorPage.goto(`${inspector.origin}/?MCP_INSPECTOR_API_TOKEN=${inspector.token}`)
      await expect.poll(() => inspectorPage.locator('body').innerText(), { timeout: 20_000 }).toContain(adminUrl.href)
      await screenshot(inspectorPage, 'devtools-inspector-command')
    }
    finally {
      await inspectorPage.close()
      await inspector.stop()
    }
  }, 90_000)

  it('gives each endpoint the links and commands that add it to Cursor, VS Code and Claude Code, under its server name', async () => {
    // The fixture's `mcp.name` is dev-fixture; another endpoint's server name is the app's plus its key.
    for (const [url, name] of [[app.url, 'dev-fixture'], [adminUrl, 'dev-fixture-admin']] as const) {
      await withFailureScreenshot(page, `devtools-install-${name}`, async () => {
        const section = endpointSection(page, url.pathname)
        const href = (selector: string) => section.locator(`.install-links a.${selector}`).getAttribute('href').then(value => value ?? '')
        expect(readCursorLink(await href('install-cursor'))).toEqual({ keys: ['name', 'config'], name, config: { url: url.href } })
        const vscode = { name, type: 'http', url: url.href }
        expect(readVscodeLink(await href('install-vscode'))).toEqual({ scheme: 'vscode', path: 'mcp/install', config: vscode })
        expect(readVscodeLink(await href('install-vscode-insiders'))).toEqual({ scheme: 'vscode-insiders', path: 'mcp/install', config: vscode })
        expect(await section.locator('.install-auth').innerText()).toContain('No sign-in here')
        await section.locator('.install summary').click()
        const row = (key: string) => section.locator(`[data-install="${key}"] pre`).innerText()
        expect(shellWords(await row('claude-command'))).toEqual(['claude', 'mcp', 'add', '--transport', 'http', name, url.href])
        const [code, flag, json, ...rest] = shellWords(await row('vscode-command'))
        expect([code, flag, rest]).toEqual(['code', '--add-mcp', []])
        expect(JSON.parse(json!)).toEqual(vscode)
        expect(readCursorLink(await row('cursor-link'))).toEqual(readCursorLink(await href('install-cursor')))
        const web = readCursorLink(await row('cursor-web'))
        expect(new URL(await row('cursor-web')).origin).toBe('https://cursor.com')
        expect(web).toEqual({ keys: ['name', 'config'], name, config: { url: url.href } })
        expect(readVscodeLink(await row('vscode-link')).config).toEqual(vscode)
        expect(readVscodeLink(await row('vscode-insiders-link')).config).toEqual(vscode)
        expect(JSON.parse(await row('claude-config'))).toEqual({ mcpServers: { [name]: { type: 'http', url: url.href } } })
        expect(JSON.parse(await row('cursor-config'))).toEqual({ mcpServers: { [name]: { url: url.href } } })
        expect(JSON.parse(await row('vscode-config'))).toEqual({ servers: { [name]: { type: 'http', url: url.href } } })
      })
    }
    await screenshot(page, 'devtools-install')
  })

  it('copies a command with its button, and keeps the list open across the page\'s refreshes', async () => {
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url.origin })
    await withFailureScreenshot(page, 'devtools-install-copy', async () => {
      const admin = endpointSection(page, '/mcp/admin')
      // Opened by the test before; the page has re-rendered since (it polls every 2 s).
      const status = await page.locator('#status').innerText()
      await expect.poll(() => page.locator('#status').innerText(), { timeout: 10_000 }).not.toBe(status)
      expect(await admin.locator('.install details').getAttribute('open')).not.toBeNull()
      const button = admin.locator('[data-install="claude-command"] button.copy')
      await button.click()
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(`claude mcp add --transport http dev-fixture-admin ${adminUrl.href}`)
      await admin.locator('[data-install="vscode-command"] button.copy').click()
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(await admin.locator('[data-install="vscode-command"] pre').innerText())
    })
  })

  it('fits a 500 px panel: no table is wider than the page', async () => {
    await page.setViewportSize({ width: 500, height: 900 })
    try {
      await withFailureScreenshot(page, 'devtools-500px', async () => {
        await expect.poll(() => rowsOf(page, '/mcp', 'questions').count()).toBeGreaterThan(3)
        const overflow = await page.evaluate(() => ({
          page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          tables: Array.from(document.querySelectorAll('table')).map(table => table.scrollWidth - (table.parentElement?.clientWidth ?? 0)),
          // The install lists (opened by the tests above): a long link or command wraps.
          install: Array.from(document.querySelectorAll('.install-row')).filter(row => row.getClientRects().length > 0).map(row => row.scrollWidth - row.clientWidth),
        }))
        expect(overflow.page).toBeLessThanOrEqual(0)
        expect(overflow.install.length).toBe(18)
        for (const excess of overflow.install) expect(excess).toBeLessThanOrEqual(0)
        expect(overflow.tables.length).toBeGreaterThan(10)
        for (const excess of overflow.tables) expect(excess).toBeLessThanOrEqual(0)
        // Each row is a block of labelled lines there, the answer still readable.
        expect(await rowsOf(page, '/mcp/admin', 'questions', 'legacy').innerText()).toContain('"amount": 12')
        await screenshot(page, 'devtools-tab-500px')
      })
    }
    finally {
      await page.setViewportSize({ width: 1280, height: 800 })
    }
  })

  it('clears the calls and questions on the page\'s own request only', async () => {
    // Without the page's header (as a cross-site form would send it): refused, nothing cleared.
    const forged = await rawRequest(`${pageUrl}.json`, {}, 'DELETE')
    expect(forged.status).toBe(403)
    const crossSite = await rawRequest(`${pageUrl}.json`, { 'origin': 'https://evil.example', 'x-mcp-devtools': 'clear' }, 'DELETE')
    expect(crossSite.status).toBe(403)
    const data: { calls: unknown[] } = await (await fetch(`${pageUrl}.json`)).json()
    expect(data.calls.length).toBeGreaterThan(0)
    await withFailureScreenshot(page, 'devtools-clear', async () => {
      await page.click('#clear')
      for (const route of ['/mcp', '/mcp/admin']) {
        await expect.poll(() => rowsOf(page, route, 'questions').count()).toBe(0)
        expect(await rowsOf(page, route, 'calls').count()).toBe(0)
        expect(await endpointSection(page, route).locator('.list.questions').innerText()).toContain('Nothing asked yet')
      }
      // The definitions and tasks stay: they are the app's, not a record.
      expect(await rowsOf(page, '/mcp/admin', 'tools').count()).toBe(1)
      expect(await rowsOf(page, '/mcp', 'tasks').count()).toBeGreaterThan(0)
    })
  })

  it('refuses its data to a foreign Host or Origin, as the MCP endpoint does', async () => {
    // fetch() cannot set Host: a raw request, as a DNS-rebinding page's would arrive. (In dev,
    // Vite's own host check may answer first; either way nothing is served.)
    const foreignHost = await rawRequest(`${pageUrl}.json`, { host: 'evil.example' })
    expect(foreignHost.status).toBe(403)
    expect(foreignHost.body).not.toContain('pick_color')
    // A browser on the network (`nuxi dev --host`) names this machine's address, not localhost.
    const network = await rawRequest(`${pageUrl}.json`, { host: `192.0.2.10:${app.url.port}` })
    expect(network.status).toBe(403)
    expect(network.body).toContain('served to this machine only')
    const foreignOrigin = await rawRequest(`${pageUrl}.json`, { origin: 'https://evil.example' })
    expect(foreignOrigin.status).toBe(403)
    expect(foreignOrigin.body).toContain('mcp.allowedOrigins')
    const served = await fetch(`${pageUrl}.json`)
    const data: { endpoints: { route: string, tools: { name: string }[] }[] } = await served.json()
    expect(data.endpoints.map(endpoint => [endpoint.route, endpoint.tools.map(tool => tool.name).sort()])).toEqual([
      ['/mcp', ['echo', 'pick_color', 'pick_two', 'ship_later', 'show_card']],
      ['/mcp/admin', ['refund']],
    ])
  })

  it('serves the tab\'s icon itself', async () => {
    const icon = await fetch(`${pageUrl}.svg`)
    expect(icon.headers.get('content-type')).toContain('image/svg+xml')
    expect(await icon.text()).toMatch(/^<svg /)
  })

  it('registers the tab with Nuxt DevTools', async () => {
    const nuxt = await loadNuxt({ cwd: app.dir, dev: true, ready: true, overrides: { devtools: { enabled: false } } })
    try {
      const tabs: ModuleCustomTab[] = []
      await nuxt.callHook('devtools:customTabs', tabs)
      // The icon is a path on the dev server (shown as an image), not an Iconify name fetched over the network.
      expect(tabs).toContainEqual(expect.objectContaining({ name: 'mcp-elicitation', icon: '/__mcp-elicitation/devtools.svg', view: expect.objectContaining({ type: 'iframe', src: '/__mcp-elicitation/devtools' }) }))
    }
    finally {
      await nuxt.close()
    }
  }, 60_000)
})
