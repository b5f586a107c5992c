import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium } from 'playwright-core'
import type { BrowserContext, Page } from 'playwright-core'
import { repoRoot } from './fixture'

/** Debian's chromium package; `scripts/ensure-debian-packages.sh` installs it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

/** Where screenshots and page dumps go (ignored by git, kept by CI). */
export const resultsDir = resolve(repoRoot, 'test-results')

/**
 * Throws (never skips) when the browser is missing, naming the script that installs it.
 */
export function assertChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: run scripts/ensure-debian-packages.sh (apt-get install -y chromium) before the browser tests.`)
  }
}

export interface LaunchedBrowser {
  context: BrowserContext
  page: Page
  /** Every non-loopback URL the page tried to load (all of them were aborted). */
  blocked: string[]
  close: () => Promise<void>
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/**
 * Headless Debian chromium with a fresh profile (`--user-data-dir`, a new temp dir each time) and
 * no background traffic. Playwright refuses `--user-data-dir` in `chromium.launch()` args, so the
 * fresh profile goes through `launchPersistentContext`. Every request that leaves loopback (web
 * fonts, a URL-mode elicitation's external page) is aborted and recorded in `blocked`.
 */
export async function launchBrowser(): Promise<LaunchedBrowser> {
  assertChromium()
  const profile = mkdtempSync(join(tmpdir(), 'mcp-chromium-'))
  let context: BrowserContext
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      timeout: 60_000,
      viewport: { width: 1400, height: 1000 },
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    })
  }
  catch (error) {
    rmSync(profile, { recursive: true, force: true })
    throw error
  }
  const blocked: string[] = []
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url())
    // `*.localhost` is loopback too (RFC 6761; Chromium resolves it without DNS): the playground's views' sandbox.
    if (url.protocol === 'blob:' || url.protocol === 'data:' || LOOPBACK.has(url.hostname) || url.hostname.endsWith('.localhost')) return route.continue()
    blocked.push(url.href)
    return route.abort()
  })
  const page = context.pages()[0] ?? await context.newPage()
  return {
    context,
    page,
    blocked,
    close: async () => {
      await context.close().catch(() => {})
      rmSync(profile, { recursive: true, force: true })
    },
  }
}

function safeName(name: string): string {
  return name.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 120) || 'page'
}

/** Full-page screenshot into test-results/; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(resultsDir, { recursive: true })
  const path = join(resultsDir, `${safeName(name)}.png`)
  await page.screenshot({ path, fullPage: true, timeout: 15_000 })
  return path
}

/**
 * Runs `step`; when it throws, saves a screenshot (`<name>.failure.png`) before rethrowing, and
 * appends the screenshot path to the error message.
 */
export async function withFailureScreenshot<T>(page: Page, name: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step()
  }
  catch (error) {
    let shot = ''
    try {
      shot = await screenshot(page, `${name}.failure`)
    }
    catch (shotError) {
      shot = `(screenshot failed: ${(shotError as Error).message})`
    }
    if (error instanceof Error) error.message += `\n[screenshot: ${shot}]`
    throw error
  }
}
