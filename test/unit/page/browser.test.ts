// The question page in headless Debian chromium: a tiny node:http server serves
// renderQuestionPage() with pageHeaders() and reads each POST with readPageAnswers(), as the
// page's route does. It shows that what the browser submits is what readPageAnswers expects
// (an unticked checkbox included) with the headers checkPagePost lets through, while another
// site's form is refused; that the browser's own checks hold an invalid form back but not a decline, that a refusal comes back with its messages and what was typed, and that the
// CSP lets the stylesheet apply and nothing else. No built app is needed, so it lives with the
// page's unit tests (an e2e file would wait for every shared fixture's build).
import { createServer } from 'node:http'
import type { IncomingMessage, Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, withFailureScreenshot } from '../../utils/browser'
import type { LaunchedBrowser } from '../../utils/browser'
import { readPageAnswers } from '../../../src/runtime/server/page/answers'
import { checkPagePost } from '../../../src/runtime/server/page/post'
import type { McpPageAnswers } from '../../../src/runtime/server/page/answers'
import { pageHeaders, renderQuestionPage } from '../../../src/runtime/server/page/render'
import type { McpPageQuestion, McpPageView } from '../../../src/runtime/server/page/render'

const PROFILE: McpPageQuestion = {
  key: 'profile',
  mode: 'form',
  message: 'Tell us about you',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', minLength: 2 },
      email: { type: 'string', title: 'Email', format: 'email' },
      age: { type: 'integer', title: 'Age', minimum: 13 },
      news: { type: 'boolean', title: 'Send me news', default: true },
      plan: { type: 'string', title: 'Plan', enum: ['free', 'pro'], enumNames: ['Free', 'Pro'] },
      os: { type: 'array', title: 'Systems', items: { type: 'string', enum: ['linux', 'macos'] } },
      day: { type: 'string', title: 'Day', format: 'date' },
      at: { type: 'string', title: 'At', format: 'date-time' },
    },
    required: ['name', 'email'],
  },
}

const CONFIRM: McpPageQuestion = {
  key: 'confirm',
  mode: 'form',
  message: 'Deploy to prod?',
  consent: true,
  requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Yes, deploy' } }, required: ['confirm'] },
}

const CONNECT: McpPageQuestion = { key: 'connect', mode: 'url', message: 'Connect your account', url: 'https://auth.example.com/connect?x=1' }

interface Served { server: Server, origin: string, posts: string[], headers: IncomingMessage['headers'][], questions: McpPageQuestion[] }

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => { body += chunk })
    request.on('end', () => resolve(body))
    request.on('error', reject)
  })
}

/** Serves the page for `served.questions`; a POST answers JSON when read, else the page again (400). */
async function startPageServer(): Promise<Served> {
  const served: Served = { server: createServer(), origin: '', posts: [], headers: [], questions: [] }
  const view = (extra: Partial<McpPageView> = {}): McpPageView => ({
    serverName: 'Acme', tool: 'deploy', arguments: { env: 'prod' }, questions: served.questions, csrf: 'tok-1', expiresAt: Date.now() + 600_000, ...extra,
  })
  served.server.on('request', (request, response) => {
    void (async () => {
      if (request.method === 'POST') {
        const body = await readBody(request)
        served.posts.push(body)
        served.headers.push(request.headers)
        const form = new URLSearchParams(body)
        const refusal = checkPagePost({
          contentType: request.headers['content-type'],
          origin: request.headers.origin,
          secFetchSite: request.headers['sec-fetch-site'] as string | undefined,
          expectedOrigin: served.origin,
          token: form.get('_csrf'),
          expectedToken: 'tok-1',
        })
        if (refusal) {
          response.writeHead(refusal.status, { 'content-type': 'text/plain' }).end(refusal.error)
          return
        }
        const read: McpPageAnswers = readPageAnswers(served.questions, form)
        if (read.ok) {
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(read.responses))
          return
        }
        response.writeHead(400, pageHeaders()).end(renderQuestionPage(view({ errors: read.errors, values: read.values })))
        return
      }
      if (request.url === '/elsewhere') {
        // Another site's page (localhost is another site than 127.0.0.1) posting a form at the
        // question page, with the right token even: what the check must refuse.
        const action = served.origin
        response.writeHead(200, { 'content-type': 'text/html' }).end(`<form method="post" action="${action}"><input type="hidden" name="_csrf" value="tok-1"><input type="hidden" name="q0.f0" value="true"><button name="_action" value="accept">Go</button></form>`)
        return
      }
      response.writeHead(200, pageHeaders()).end(renderQuestionPage(view()))
    })().catch((error: unknown) => response.writeHead(500).end(String(error)))
  })
  await new Promise<void>(resolve => served.server.listen(0, '127.0.0.1', resolve))
  served.origin = `http://127.0.0.1:${(served.server.address() as AddressInfo).port}`
  return served
}

let served: Served
let browser: LaunchedBrowser
let page: Page
const consoleErrors: string[] = []

beforeAll(async () => {
  served = await startPageServer()
  browser = await launchBrowser()
  page = browser.page
  page.setDefaultTimeout(15_000)
  page.on('console', (message) => { if (message.type() === 'error') consoleErrors.push(message.text()) })
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await new Promise(resolve => served?.server.close(resolve))
})

/** Opens the page for `questions`, fresh. */
async function open(questions: McpPageQuestion[]): Promise<void> {
  served.questions = questions
  served.posts.length = 0
  served.headers.length = 0
  consoleErrors.length = 0
  await page.goto(served.origin)
}

/** Clicks a submit button and returns the JSON the server answered (the responses). */
async function submit(button: string): Promise<unknown> {
  const [response] = await Promise.all([page.waitForResponse(found => found.request().method() === 'POST'), page.getByRole('button', { name: button }).click()])
  expect(response.status()).toBe(200)
  return response.json()
}

describe('the question page in Chromium', () => {
  it('submits every kind of field as readPageAnswers reads it, an unticked box as false', async () => {
    await withFailureScreenshot(page, 'page-all-kinds', async () => {
      await open([PROFILE])
      await page.getByLabel('Name').fill('Ada')
      await page.getByLabel('Email').fill('ada@example.com')
      await page.getByLabel('Age').fill('36')
      // Ticked by its default; the person unticks it.
      await expect(page.getByLabel('Send me news').isChecked()).resolves.toBe(true)
      await page.getByLabel('Send me news').uncheck()
      await page.getByLabel('Plan').selectOption('pro')
      await page.getByLabel('macos').check()
      await page.getByLabel('Day').fill('2026-02-28')
      await page.getByLabel('At').fill('2026-03-01T09:30')
      expect(await submit('Send answer')).toEqual({ profile: { action: 'accept', content: {
        name: 'Ada', email: 'ada@example.com', age: 36, news: false, plan: 'pro', os: ['macos'], day: '2026-02-28', at: '2026-03-01T09:30:00.000Z',
      } } })
      expect(new URLSearchParams(served.posts[0]).get('_csrf')).toBe('tok-1')
      // What checkPagePost was written for: a form's body, from the page itself, and, under
      // Referrer-Policy: no-referrer, no Referer and the opaque Origin "null".
      expect(served.headers[0]).toMatchObject({ 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', 'origin': 'null' })
      expect(served.headers[0]?.referer).toBeUndefined()
      expect(consoleErrors).toEqual([])
    })
  })

  it('lets confirm() say no: the required box left unticked sends false', async () => {
    await withFailureScreenshot(page, 'page-confirm-no', async () => {
      await open([CONFIRM])
      await expect(page.getByText('This asks for your consent.').isVisible()).resolves.toBe(true)
      expect(await submit('Send answer')).toEqual({ confirm: { action: 'accept', content: { confirm: false } } })
      await page.goBack()
      await page.getByLabel('Yes, deploy').check()
      expect(await submit('Send answer')).toEqual({ confirm: { action: 'accept', content: { confirm: true } } })
    })
  })

  it('holds an invalid form back in the browser, but never a decline', async () => {
    await withFailureScreenshot(page, 'page-validation', async () => {
      await open([PROFILE])
      await page.getByLabel('Name').fill('A')
      await page.getByRole('button', { name: 'Send answer' }).click()
      // The browser's own check (minlength, required) stopped it: nothing was posted.
      expect(await page.getByLabel('Name').evaluate(input => input instanceof HTMLInputElement && !input.checkValidity())).toBe(true)
      expect(await page.getByLabel('Email').evaluate(input => input instanceof HTMLInputElement && input.validity.valueMissing)).toBe(true)
      expect(await submit('Decline')).toEqual({ profile: { action: 'decline' } })
      // One POST: the decline; the blocked submit never left the page.
      expect(served.posts).toHaveLength(1)
      expect(new URLSearchParams(served.posts[0]).get('_action')).toBe('decline')
    })
  })

  it('shows the server\'s refusal next to the field and keeps what was typed', async () => {
    await withFailureScreenshot(page, 'page-refused', async () => {
      await open([PROFILE])
      await page.getByLabel('Name').fill('Ada')
      // The browser takes an address without a dot in its domain; the native form's check does not.
      await page.getByLabel('Email').fill('ada@localhost')
      await page.getByLabel('Send me news').uncheck()
      await page.getByLabel('linux').check()
      const [response] = await Promise.all([page.waitForResponse(found => found.request().method() === 'POST'), page.getByRole('button', { name: 'Send answer' }).click()])
      expect(response.status()).toBe(400)
      await expect(page.getByText('Enter a valid email address, like name@example.com.').isVisible()).resolves.toBe(true)
      await expect(page.getByText('One field needs your attention.').isVisible()).resolves.toBe(true)
      expect(await page.getByLabel('Email').inputValue()).toBe('ada@localhost')
      expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true')
      expect(await page.getByLabel('Name').inputValue()).toBe('Ada')
      expect(await page.getByLabel('Send me news').isChecked()).toBe(false)
      expect(await page.getByLabel('linux').isChecked()).toBe(true)
      await page.getByLabel('Email').fill('ada@example.com')
      expect(await submit('Send answer')).toEqual({ profile: { action: 'accept', content: { name: 'Ada', email: 'ada@example.com', news: false, os: ['linux'] } } })
    })
  })

  it('refuses a form posted from another site, even with the right token', async () => {
    await withFailureScreenshot(page, 'page-cross-site', async () => {
      await open([CONFIRM])
      await page.goto(`${served.origin.replace('127.0.0.1', 'localhost')}/elsewhere`)
      const [response] = await Promise.all([page.waitForResponse(found => found.request().method() === 'POST'), page.getByRole('button', { name: 'Go' }).click()])
      expect(response.status()).toBe(403)
      expect(await response.text()).toBe('The answer came from another site (Sec-Fetch-Site: cross-site): answer on the page itself.')
      expect(served.headers[0]?.['sec-fetch-site']).toBe('cross-site')
    })
  })

  it('shows a URL question\'s host and link, and "I have done this" accepts it', async () => {
    await withFailureScreenshot(page, 'page-url', async () => {
      await open([CONNECT])
      await expect(page.locator('strong.host').textContent()).resolves.toBe('auth.example.com')
      const link = page.getByRole('link', { name: 'https://auth.example.com/connect?x=1' })
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer')
      expect(await link.getAttribute('target')).toBe('_blank')
      expect(await submit('I have done this')).toEqual({ connect: { action: 'accept' } })
    })
  })

  it('applies its stylesheet under its CSP, in light and dark, and fits a phone', async () => {
    await withFailureScreenshot(page, 'page-style', async () => {
      await open([PROFILE, CONFIRM])
      const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor)
      await page.emulateMedia({ colorScheme: 'light' })
      expect(await background()).toBe('rgb(244, 245, 247)')
      await page.emulateMedia({ colorScheme: 'dark' })
      expect(await background()).toBe('rgb(17, 19, 23)')
      await page.setViewportSize({ width: 360, height: 740 })
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
      await page.setViewportSize({ width: 1400, height: 1000 })
      await page.emulateMedia({ colorScheme: null })
      // A violation would be logged as a console error ("Refused to apply inline style …").
      expect(consoleErrors).toEqual([])
    })
  })
})
