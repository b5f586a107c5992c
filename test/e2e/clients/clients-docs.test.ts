import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { repoRoot, startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'

// The client snippets of docs/clients.md, run as written against a built app: each connects to
// MCP_URL, answers the `create_release` form and prints the result. (docs-samples.test.ts
// type-checks them; this runs them.)
const GENERATED = resolve(repoRoot, 'test/docs/.generated-run')

/** The ts blocks of docs/clients.md that connect to MCP_URL: the runnable client snippets. */
function clientSnippets(): { name: string, code: string }[] {
  const markdown = readFileSync(resolve(repoRoot, 'docs/clients.md'), 'utf8')
  return [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map(match => match[1]!)
    .filter(code => code.includes('process.env.MCP_URL'))
    .map(code => ({ name: /^\/\/ ([\w-]+\.ts)/.exec(code)?.[1] ?? 'unnamed.ts', code }))
}

const snippets = clientSnippets()
let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('elicitation')
  rmSync(GENERATED, { recursive: true, force: true })
  mkdirSync(GENERATED, { recursive: true })
})
afterAll(async () => {
  await app?.stop()
  vi.unstubAllEnvs()
})

describe('docs/clients.md', () => {
  it('has the four client snippets: v1, v2 pinned, v2 auto, @ai-sdk/mcp', () => {
    expect(snippets.map(snippet => snippet.name)).toEqual(['v1-client.ts', 'v2-modern-client.ts', 'v2-auto-client.ts', 'ai-sdk-client.ts'])
  })

  it.each(snippets.map(snippet => [snippet.name, snippet.code]))('%s runs: answers the form and prints the release', async (name, code) => {
    const file = join(GENERATED, name)
    writeFileSync(file, code)
    vi.stubEnv('MCP_URL', app.url.href)
    const printed: string[] = []
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      printed.push(args.map(arg => typeof arg === 'string' ? arg : JSON.stringify(arg)).join(' '))
    })
    try {
      // The snippet's top-level await finishes when the client has closed.
      await import(pathToFileURL(file).href)
    }
    finally {
      log.mockRestore()
    }
    expect(printed[0]).toBe('Asked: Pick a channel for "v1.2.0"')
    expect(printed.at(-1)).toContain('Created v1.2.0 on beta (notify=false)')
  })
})
