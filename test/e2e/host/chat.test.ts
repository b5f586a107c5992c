// The playground as an MCP host, in headless Debian chromium: its /chat page sends a message, its
// server route (AI SDK streamText with the scripted MockLanguageModelV4) calls the playground's own
// MCP tools through @ai-sdk/mcp over loopback, and each elicitation the tool asks comes back into
// the page as <McpElicitationForm>. Nothing is simulated between the browser, the route, the
// respond endpoint and the MCP server. /elicitation-preview covers what @ai-sdk/mcp cannot send
// (URL mode) on the component itself.
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertChromium, launchBrowser, screenshot, withFailureScreenshot } from '../../utils/browser'
import type { LaunchedBrowser } from '../../utils/browser'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { startExampleServer } from '../../utils/example-servers'
import type { ExampleServer } from '../../utils/example-servers'

const TEST_TIMEOUT = 90_000
let app: RunningFixture | undefined
let shortTimeout: RunningFixture | undefined
let browser: LaunchedBrowser | undefined
let page: Page
let setupError: Error | undefined

beforeAll(async () => {
  try {
    assertChromium()
    // MCP App views run in a sandbox on another origin: the playground's own default,
    // sandbox.localhost (same server), with no setting; the other app has none, as a production
    // app that sets nothing.
    ;[app, shortTimeout] = await Promise.all([startFixture('host'), startFixture('host', { NUXT_MCP_HOST_TIMEOUT_MS: '4000', NUXT_MCP_HOST_APPS_SANDBOX_ORIGIN: '' })])
    browser = await launchBrowser()
    page = browser.page
    page.setDefaultTimeout(30_000)
  }
  catch (error) {
    // Rethrown by every test (a throwing beforeAll would read as skipped tests).
    setupError = error instanceof Error ? error : new Error(String(error))
  }
}, 240_000)

afterAll(async () => {
  await browser?.close()
  await Promise.all([app?.stop(), shortTimeout?.stop()])
}, 60_000)

/** Runs a test body; on failure saves `test-results/host-<name>.failure.png` and adds the server log. */
async function step(name: string, body: () => Promise<void>): Promise<void> {
  if (setupError) throw setupError
  try {
    await withFailureScreenshot(page, `host-${name}`, body)
  }
  catch (error) {
    if (error instanceof Error) error.message += `\n--- server output ---\n${app?.output().slice(-3000) ?? ''}\n${shortTimeout?.output().slice(-2000) ?? ''}`
    throw error
  }
}

/** Opens a fresh /chat, runs `tool` with the scripted model, and returns its elicitation form. */
async function runTool(server: RunningFixture | undefined, tool: string, message: string) {
  if (!server) throw new Error('server not started')
  await page.goto(`${server.origin}/chat`, { waitUntil: 'networkidle' })
  await page.getByLabel('Tool', { exact: true }).selectOption(tool)
  await page.getByRole('button', { name: 'Run tool' }).click()
  const form = page.getByRole('region', { name: message })
  await form.waitFor()
  return form
}

/** Waits for the tool's result text in the chat and returns it. */
async function toolOutput(pattern: RegExp): Promise<string> {
  const output = page.getByTestId('tool-output').filter({ hasText: pattern })
  await output.waitFor()
  return (await output.textContent()) ?? ''
}

const REGISTER = 'Please fill in your registration details'

/**
 * The control labelled `label`. Playwright matches a label's whole text, which includes the
 * required mark (` *`, hidden from assistive tech), so both forms are accepted.
 */
function field(scope: Locator, label: string): Locator {
  return scope.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?: \\*)?$`))
}

describe('playground /chat: an MCP host showing its server\'s elicitations', () => {
  it('renders the register form, validates it, and returns the answer to the tool', async () => {
    await step('register-accept', async () => {
      const form = await runTool(app, 'register', REGISTER)
      expect(await form.getByText('playground asks:').count()).toBe(1)
      const name = field(form, 'Full name')
      const email = field(form, 'Email')
      const age = field(form, 'Age')
      const newsletter = form.getByRole('checkbox', { name: 'Subscribe to the newsletter' })
      expect(await email.getAttribute('type')).toBe('email')
      expect(await age.getAttribute('type')).toBe('number')
      expect([await age.getAttribute('min'), await age.getAttribute('max')]).toEqual(['13', '130'])
      expect(await name.getAttribute('required')).not.toBeNull()
      expect(await newsletter.isChecked()).toBe(false) // the schema's default
      await screenshot(page, 'host-chat-register-form')

      // Client-side validation: messages next to the fields, focus on the first invalid one.
      await form.getByRole('button', { name: 'Submit' }).click()
      await form.getByText('This field is required.').first().waitFor()
      expect(await form.getByText('This field is required.').count()).toBe(2)
      expect(await name.getAttribute('aria-invalid')).toBe('true')
      expect(await name.evaluate(element => element === document.activeElement)).toBe(true)
      await name.fill('Ada Lovelace')
      await email.fill('ada@')
      await age.fill('12')
      await form.getByRole('button', { name: 'Submit' }).click()
      await form.getByText('Enter a valid email address, like name@example.com.').waitFor()
      await form.getByText('Enter a number of at least 13.').waitFor()

      await email.fill('ada@example.com')
      await age.fill('36')
      await newsletter.check()
      await form.getByRole('button', { name: 'Submit' }).click()
      expect(await toolOutput(/Registered/)).toBe('Registered Ada Lovelace <ada@example.com>, age 36, newsletter: yes')
      await form.waitFor({ state: 'detached' })
      await page.getByText('Elicitation answered (accept)').waitFor()
      // The model's closing message does not repeat the result: it is shown once, by the tool part.
      await page.getByText('The register tool finished; its result is shown above.').waitFor()
      expect(await page.getByText(/Registered Ada Lovelace/).count()).toBe(1)
      // The "Answer sent" notice belonged to the running call: gone once it has finished.
      await page.locator('.status[data-status="ready"]').waitFor()
      expect(await page.locator('.notice').textContent()).toBe('')
      await screenshot(page, 'host-chat-register-result')
    })
  }, TEST_TIMEOUT)

  it('connect_account tells a form-only client where to go instead of failing', async () => {
    await step('connect-account', async () => {
      if (!app) throw new Error('server not started')
      await page.goto(`${app.origin}/chat`, { waitUntil: 'networkidle' })
      await page.getByLabel('Tool', { exact: true }).selectOption('connect_account')
      await page.getByRole('button', { name: 'Run tool' }).click()
      expect(await toolOutput(/cannot open pages/)).toBe(`This client cannot open pages. Open ${app.origin}/connect in your browser to connect your account.`)
      expect(await page.getByRole('alert').count()).toBe(0)
    })
  }, TEST_TIMEOUT)

  it('declining returns decline to the tool', async () => {
    await step('register-decline', async () => {
      const form = await runTool(app, 'register', REGISTER)
      await form.getByRole('button', { name: 'Decline' }).click()
      expect(await toolOutput(/Registration/)).toBe('Registration declined.')
      await page.getByText('Elicitation answered (decline)').waitFor()
    })
  }, TEST_TIMEOUT)

  it('cancelling returns cancel to the tool', async () => {
    await step('register-cancel', async () => {
      const form = await runTool(app, 'register', REGISTER)
      await form.getByRole('button', { name: 'Cancel' }).click()
      expect(await toolOutput(/Registration/)).toMatch(/^Registration cancel/)
      await page.getByText('Elicitation answered (cancel)').waitFor()
    })
  }, TEST_TIMEOUT)

  it('a titled select, a multi select and a defaulted checkbox reach create_release typed', async () => {
    await step('create-release', async () => {
      const form = await runTool(app, 'create_release', 'Pick a channel for "v1.2.0"')
      // `channel` has no title: it is labelled "Channel", not by its raw key.
      const channel = field(form, 'Channel')
      expect(await channel.locator('option').allTextContents()).toEqual(['Choose…', 'Stable (everyone)', 'Beta (opt-in testers)', 'Canary (nightly)'])
      expect(await form.getByRole('checkbox', { name: 'Notify subscribers' }).isChecked()).toBe(true)
      await form.getByRole('button', { name: 'Submit' }).click()
      await form.getByText('Choose an option.').first().waitFor()
      await channel.selectOption('beta')
      const platforms = form.getByRole('group', { name: /Platforms/ })
      await platforms.getByRole('checkbox', { name: 'linux' }).check()
      await platforms.getByRole('checkbox', { name: 'macos' }).check()
      await form.getByRole('button', { name: 'Submit' }).click()
      expect(await toolOutput(/Created/)).toBe('Created v1.2.0 on beta for linux, macos (notify=true)')
    })
  }, TEST_TIMEOUT)

  it('the respond endpoint refuses a second answer (404) and a request without the CSRF header (403)', async () => {
    await step('respond-refusals', async () => {
      const form = await runTool(app, 'delete_project', 'Really delete the project "demo"? This cannot be undone.')
      const answered = page.waitForRequest(request => request.method() === 'POST' && request.url().includes('/api/_mcp/elicitations/'))
      await form.getByRole('button', { name: 'Yes' }).click()
      const respondUrl = (await answered).url()
      expect(await toolOutput(/demo/)).toBe('Deleted demo.')
      const statuses = await page.evaluate(async (url) => {
        const post = (target: string, headers: Record<string, string>) => fetch(target, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"action":"decline"}' }).then(response => response.status)
        return {
          again: await post(url, { 'x-mcp-elicitation': '1' }),
          unknown: await post('/api/_mcp/elicitations/00000000-0000-4000-8000-000000000000', { 'x-mcp-elicitation': '1' }),
          noHeader: await post(url, {}),
        }
      }, respondUrl)
      expect(statuses).toEqual({ again: 404, unknown: 404, noHeader: 403 })
    })
  }, TEST_TIMEOUT)

  it('a yes/no question (confirm) is two buttons; No reaches the tool as not confirmed', async () => {
    await step('confirm-no', async () => {
      const form = await runTool(app, 'delete_project', 'Really delete the project "demo"? This cannot be undone.')
      // No checkbox, no Submit / Decline / Cancel: the question's own two answers.
      expect(await form.getByRole('button').allTextContents()).toEqual(['Yes', 'No'])
      expect(await form.getByRole('checkbox').count()).toBe(0)
      await screenshot(page, 'host-confirm')
      await form.getByRole('button', { name: 'No' }).click()
      expect(await toolOutput(/demo/)).toBe('Kept demo.')
    })
  }, TEST_TIMEOUT)

  it('an unanswered elicitation times out: the form shows the time left, then the tool gets cancel and the form goes away', async () => {
    await step('register-timeout', async () => {
      const form = await runTool(shortTimeout, 'register', REGISTER)
      // The host's timeout here is 4 s: the last minute at once, with what happens to the answers.
      const timer = form.getByRole('timer')
      expect(await timer.textContent()).toMatch(/^Time left to answer: 0:0[1-4]\. What you typed is lost when it runs out\.$/)
      await page.getByText('Elicitation expired (cancel)').waitFor({ timeout: 20_000 })
      expect(await form.count()).toBe(0)
      expect(await toolOutput(/Registration/)).toMatch(/^Registration cancel/)
    })
  }, TEST_TIMEOUT)
})

describe('playground /chat: every tool the app defines, with the scripted model', () => {
  it('offers a tool added to the app (not in any list), but not a tool only a view may call, and runs it with arguments made from its schema', async () => {
    await step('added-tool', async () => {
      if (!app) throw new Error('server not started')
      await page.goto(`${app.origin}/chat`, { waitUntil: 'networkidle' })
      const offered = await page.getByLabel('Tool', { exact: true }).locator('option').allTextContents()
      // plan_trip comes from a layer the playground knows nothing of; refresh_weather is ['app'] only.
      expect(offered).toEqual(expect.arrayContaining(['plan_trip', 'register', 'show_weather', 'book_stay', 'echo']))
      expect(offered).not.toContain('refresh_weather')
      await page.getByLabel('Tool', { exact: true }).selectOption('plan_trip')
      await page.getByRole('button', { name: 'Run tool' }).click()
      // Each argument within its schema: a string of 2+, an integer of at least 2, the first
      // choice, a date, a boolean; the optional one left out.
      expect(await toolOutput(/Planned/)).toBe('Planned sample city for 2 by train from 2026-12-24 (pets: false, note: none)')
      expect(await page.getByRole('alert').count()).toBe(0)
    })
  }, TEST_TIMEOUT)
})

describe('playground /chat: MCP Apps', () => {
  it('shows show_weather\'s view in a sandbox on another origin, and its button calls refresh_weather through the host', async () => {
    await step('app-view', async () => {
      if (!app) throw new Error('server not started')
      await page.goto(`${app.origin}/chat`, { waitUntil: 'networkidle' })
      await page.getByLabel('Tool', { exact: true }).selectOption('show_weather')
      await page.getByRole('button', { name: 'Run tool' }).click()
      const frame = page.getByTestId('mcp-view-frame')
      await frame.waitFor()
      // Out of the box, built: the proxy is on sandbox.localhost, another origin than the page's.
      expect(new URL((await frame.getAttribute('src')) ?? '').origin).toBe(app.origin.replace('127.0.0.1', 'sandbox.localhost'))
      const view = page.frameLocator('[data-testid="mcp-view-frame"]').frameLocator('iframe')
      await expect.poll(() => view.getByTestId('weather-now').innerText(), { timeout: 30_000 }).toBe('Lyon: 14 °C')
      await screenshot(page, 'host-app-view')
      const call = page.waitForRequest(request => request.method() === 'POST' && request.url().includes('/api/_mcp/apps/'))
      await view.getByTestId('weather-refresh').click()
      await expect.poll(() => view.getByTestId('weather-refreshed').innerText(), { timeout: 30_000 }).toMatch(/^Refreshed Lyon \(\d+\)$/)
      // The call endpoint: the owner's browser only, with the CSRF header, a name and arguments.
      const callUrl = (await call).url()
      const statuses = await page.evaluate(async (url) => {
        const post = (target: string, headers: Record<string, string>, body: string) => fetch(target, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }).then(response => response.status)
        return {
          noHeader: await post(url, {}, '{"name":"refresh_weather","arguments":{"city":"Paris"}}'),
          noName: await post(url, { 'x-mcp-elicitation': '1' }, '{"arguments":{}}'),
          unknown: await post(url.replace(/apps\/[^/]+\/call/, 'apps/00000000-0000-4000-8000-000000000000/call'), { 'x-mcp-elicitation': '1' }, '{"name":"refresh_weather","arguments":{"city":"Paris"}}'),
        }
      }, callUrl)
      expect(statuses).toEqual({ noHeader: 403, noName: 400, unknown: 404 })
      // Another browser (no owner cookie) gets the same 404 as an unknown id.
      const stranger = await fetch(callUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-mcp-elicitation': '1' }, body: '{"name":"refresh_weather","arguments":{"city":"Paris"}}' })
      expect(stranger.status).toBe(404)
    })
  }, TEST_TIMEOUT)

  it('answers book_stay\'s form inside its date-range view (app-rendered elicitation), and the tool gets the typed dates', async () => {
    await step('app-elicitation', async () => {
      if (!app) throw new Error('server not started')
      await page.goto(`${app.origin}/chat`, { waitUntil: 'networkidle' })
      await page.getByLabel('Tool', { exact: true }).selectOption('book_stay')
      await page.getByRole('button', { name: 'Run tool' }).click()
      await page.getByTestId('mcp-view-frame').waitFor()
      const view = page.frameLocator('[data-testid="mcp-view-frame"]').frameLocator('iframe')
      await expect.poll(() => view.getByTestId('dates-question').innerText(), { timeout: 30_000 }).toBe('When do you arrive and leave?')
      // The plain form is not shown: the view is the form.
      expect(await page.getByRole('region', { name: 'When do you arrive and leave?' }).count()).toBe(0)
      await screenshot(page, 'host-app-elicitation')
      await view.getByTestId('dates-book').click()
      expect(await toolOutput(/Booked/)).toBe('Booked 2026-12-24 to 2026-12-27')
    })
  }, TEST_TIMEOUT)

  it('without a sandbox origin, asks book_stay\'s question with the plain form', async () => {
    await step('app-elicitation-plain', async () => {
      const form = await runTool(shortTimeout, 'book_stay', 'When do you arrive and leave?')
      expect(await page.getByTestId('mcp-view-frame').count()).toBe(0)
      await field(form, 'From').fill('2026-12-24')
      await field(form, 'To').fill('2026-12-27')
      await form.getByRole('button', { name: 'Submit' }).click()
      expect(await toolOutput(/Booked/)).toBe('Booked 2026-12-24 to 2026-12-27')
    })
  }, TEST_TIMEOUT)

  it('without a sandbox origin in production, shows no view and says why', async () => {
    await step('app-off', async () => {
      if (!shortTimeout) throw new Error('server not started')
      await page.goto(`${shortTimeout.origin}/chat`, { waitUntil: 'networkidle' })
      await page.getByLabel('Tool', { exact: true }).selectOption('show_weather')
      await page.getByRole('button', { name: 'Run tool' }).click()
      const note = page.getByTestId('mcp-view-off')
      await note.waitFor()
      expect(await note.textContent()).toContain('set mcp.host.apps.sandboxOrigin')
      expect(await page.getByTestId('mcp-view-frame').count()).toBe(0)
      expect(await toolOutput(/Lyon/)).toContain('"celsius":14')
    })
  }, TEST_TIMEOUT)
})

describe('playground /chat: MCP Apps of servers nobody here wrote (npm examples)', () => {
  const examples: { server?: ExampleServer, host?: RunningFixture }[] = []
  afterAll(async () => {
    for (const { server, host } of examples) await Promise.all([server?.stop(), host?.stop()])
  }, 60_000)

  /** The example server on loopback, and a host whose chat talks to it. */
  async function exampleChat(flavour: 'vue' | 'vanillajs') {
    const server = await startExampleServer(flavour)
    const host = await startFixture('host', { NUXT_MCP_HOST_APPS_SANDBOX_ORIGIN: 'localhost', NUXT_PLAYGROUND_MCP_URL: server.url.href })
    examples.push({ server, host })
    await page.goto(`${host.origin}/chat`, { waitUntil: 'networkidle' })
    await page.getByLabel('Tool', { exact: true }).selectOption('get-time')
    await page.getByRole('button', { name: 'Run tool' }).click()
    await page.getByTestId('mcp-view-frame').waitFor()
    return page.frameLocator('[data-testid="mcp-view-frame"]').frameLocator('iframe')
  }

  it('renders @modelcontextprotocol/server-basic-vue\'s view with its get-time result', async () => {
    await step('app-example-vue', async () => {
      const view = await exampleChat('vue')
      await expect.poll(() => view.locator('code.server-time').innerText(), { timeout: 30_000 }).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/)
      await screenshot(page, 'host-app-example-vue')
    })
  }, TEST_TIMEOUT)

  it('lets @modelcontextprotocol/server-basic-vanillajs\'s view call get-time from inside, through the host', async () => {
    await step('app-example-vanillajs', async () => {
      const view = await exampleChat('vanillajs')
      const time = view.locator('#server-time')
      await expect.poll(() => time.innerText(), { timeout: 30_000 }).toMatch(/^\d{4}-\d\d-\d\dT/)
      const first = await time.innerText()
      const call = page.waitForResponse(response => response.request().method() === 'POST' && response.url().includes('/api/_mcp/apps/'))
      await view.locator('#get-time-btn').click()
      expect((await call).status()).toBe(200)
      await expect.poll(() => time.innerText(), { timeout: 30_000 }).not.toBe(first)
      expect(await time.innerText()).toMatch(/^\d{4}-\d\d-\d\dT/)
      await screenshot(page, 'host-app-example-vanillajs')
    })
  }, TEST_TIMEOUT)
})

describe('<McpElicitationForm> on /elicitation-preview', () => {
  async function open(): Promise<void> {
    if (!app) throw new Error('server not started')
    if (!page.url().endsWith('/elicitation-preview')) await page.goto(`${app.origin}/elicitation-preview`, { waitUntil: 'networkidle' })
  }

  it('URL mode shows the target host, asks consent, and opens it in a new tab', async () => {
    await step('preview-url', async () => {
      await open()
      const section = page.getByTestId('preview-url')
      expect(await section.getByTestId('mcp-url-host').textContent()).toBe('auth.example.com')
      // The URL itself is a link to a new tab, without a way back to this page.
      const link = section.getByRole('link', { name: 'https://auth.example.com/connect?state=abc' })
      expect([await link.getAttribute('target'), await link.getAttribute('rel')]).toEqual(['_blank', 'noopener noreferrer'])
      const popup = page.context().waitForEvent('page')
      await section.getByRole('button', { name: 'Open auth.example.com' }).click()
      const opened = await popup
      // The new tab went to the target (the test browser aborts every non-loopback load).
      await expect.poll(() => browser?.blocked.some(url => url.startsWith('https://auth.example.com/connect?state=abc'))).toBe(true)
      await opened.close()
      expect(await section.getByTestId('answer-url').textContent()).toBe('{"action":"accept"}')
      // Following the link is consent too.
      const linked = page.getByTestId('preview-url-http')
      const second = page.context().waitForEvent('page')
      await linked.getByRole('link', { name: 'http://legacy.example.com/page' }).click()
      await (await second).close()
      expect(await linked.getByTestId('answer-url-http').textContent()).toBe('{"action":"accept"}')
      // A link that fails the checks is never a link.
      expect(await page.getByTestId('preview-url-bad').getByRole('link').count()).toBe(0)
      expect(await page.getByTestId('preview-url-http').getByText('The link is not encrypted (http).').count()).toBe(1)
      expect(await page.getByTestId('preview-url-bad').getByText('Only http and https links can be opened.').count()).toBe(1)
      await page.getByTestId('preview-url-bad').getByRole('button', { name: 'Decline' }).click()
      expect(await page.getByTestId('answer-url-bad').textContent()).toBe('{"action":"decline"}')
      expect(await page.getByTestId('preview-unsupported').getByRole('alert').textContent()).toContain('Field "address"')
    })
  }, TEST_TIMEOUT)

  it('every field kind renders with its control, defaults and messages, and submits typed content', async () => {
    await step('preview-every-field', async () => {
      await open()
      const form = page.getByTestId('preview-every-field')
      const types = await Promise.all(['Email', 'Website', 'Birthday', 'Meeting', 'Age', 'Ratio'].map(label => field(form, label).getAttribute('type')))
      expect(types).toEqual(['email', 'url', 'date', 'datetime-local', 'number', 'number'])
      expect(await field(form, 'Ratio').inputValue()).toBe('0.5')
      expect(await field(form, 'Channel').inputValue()).toBe('stable')
      expect(await field(form, 'Region').locator('option').allTextContents()).toEqual(['(none)', 'Europe', 'United States'])
      // A select with no title is labelled by its key as words, not the raw key.
      expect(await field(form, 'Plan tier').locator('option').allTextContents()).toEqual(['(none)', 'free', 'pro'])
      expect(await form.getByRole('group', { name: /Platforms/ }).getByRole('checkbox', { name: 'linux' }).isChecked()).toBe(true)
      // The description is wired to its input by aria-describedby.
      const hint = await field(form, 'Full name').getAttribute('aria-describedby')
      expect(await form.locator(`[id="${hint}"]`).textContent()).toBe('As on your passport')
      await form.getByRole('button', { name: 'Submit' }).click()
      await form.getByText('4 fields need your attention.').waitFor()
      await field(form, 'Full name').fill('Ada')
      await field(form, 'Email').fill('ada@example.com')
      await field(form, 'Age').fill('36')
      await field(form, 'Size').selectOption('m')
      await field(form, 'Birthday').fill('1815-12-10')
      await form.getByRole('group', { name: /Colors/ }).getByRole('checkbox', { name: 'Green' }).check()
      await form.getByRole('button', { name: 'Submit' }).click()
      const answer: unknown = JSON.parse((await page.getByTestId('answer-every-field').textContent()) ?? '')
      expect(answer).toEqual({ action: 'accept', content: { name: 'Ada', email: 'ada@example.com', birthday: '1815-12-10', age: 36, ratio: 0.5, terms: false, size: 'm', channel: 'stable', platforms: ['linux'], colors: ['g'] } })
    })
  }, TEST_TIMEOUT)
})
