import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectModern } from '../../utils/clients'
import { startDevApp } from '../../utils/dev-server'
import type { DevApp } from '../../utils/dev-server'
import { listSkills, loadSkill, wireOf } from '../../utils/skills-host'
import type { Skill } from '../../utils/skills-host'

// `nuxi dev` on a throwaway copy of test/fixtures/dev, which starts without any skill: a skill
// folder created, a SKILL.md edited and a skill removed while it runs are served after the rebuild
// they cause, to a 2026-07-28 client connected before (stateless: it needs no new session).

const POLL_MS = 60_000
const ATTEMPT_MS = 8_000
let app: DevApp

const skillMd = (description: string) => `---\nname: live-notes\ndescription: ${description}\n---\n\n# Live notes\n\n${description}.\n`

/** Polls skills/list with a fresh 2026-07-28 client until `accept` holds, or fails with the last answer and the dev log. */
async function waitForSkills(what: string, accept: (skills: Skill[]) => boolean): Promise<Skill[]> {
  const deadline = Date.now() + POLL_MS
  let last = 'no answer yet'
  for (;;) {
    try {
      const client = await connectModern(app.url, { connectTimeoutMs: ATTEMPT_MS })
      try {
        const { skills } = await listSkills(wireOf(client))
        if (accept(skills)) return skills
        last = JSON.stringify(skills)
      }
      finally {
        await client.close().catch(() => {})
      }
    }
    catch (error) {
      last = error instanceof Error ? error.message : String(error)
    }
    if (!app.alive()) throw new Error(`nuxi dev exited while waiting for ${what}:\n${app.log()}`)
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}. Last skills/list: ${last}\n--- nuxi dev output ---\n${app.log()}`)
    await new Promise(r => setTimeout(r, 500))
  }
}

beforeAll(async () => {
  app = await startDevApp()
}, 180_000)
afterAll(() => app?.stop(), 30_000)

describe('nuxi dev serves skills as they are written', () => {
  const folder = () => join(app.dir, 'server/mcp/skills/live-notes')

  it('serves a skill folder created while running, its digests right', async () => {
    await mkdir(folder(), { recursive: true })
    await writeFile(join(folder(), 'SKILL.md'), skillMd('First version'))
    const skills = await waitForSkills('live-notes to appear', list => list.some(skill => skill.uri === 'skill://live-notes/SKILL.md'))
    const client = await connectModern(app.url)
    try {
      const files = await loadSkill(wireOf(client), skills[0]!)
      expect(files.get('skill://live-notes/SKILL.md')?.bytes.toString()).toContain('First version.')
      expect(client.getServerCapabilities()?.extensions).toHaveProperty(['io.modelcontextprotocol/skills'])
    }
    finally {
      await client.close()
    }
  }, POLL_MS + 150_000)

  it('serves the edited SKILL.md with its new digest', async () => {
    const before = (await waitForSkills('live-notes', list => list.length === 1))[0]!
    await writeFile(join(folder(), 'SKILL.md'), skillMd('Edited version'))
    const after = (await waitForSkills('the edited description', list => list[0]?.frontmatter.description === 'Edited version'))[0]!
    expect(after.resources).not.toEqual(before.resources)
  }, 2 * POLL_MS)

  it('drops a removed skill, and the extension with it', async () => {
    await rm(folder(), { recursive: true })
    const client = await connectModern(app.url)
    try {
      const deadline = Date.now() + POLL_MS
      let failure = ''
      while (Date.now() < deadline) {
        failure = await client.request({ method: 'skills/get', params: { uri: 'skill://live-notes/SKILL.md' } }, (await import('zod')).z.looseObject({})).then(() => '', (error: unknown) => String(error))
        // A request that reaches no server (the rebuild under way) says nothing yet: ask again.
        if (failure && !/fetch failed|ECONNREFUSED|ECONNRESET|terminated|socket hang up/.test(failure)) break
        await new Promise(r => setTimeout(r, 500))
      }
      // No skill left: no extension, no skills methods; the SDK answers as for any unknown method.
      expect(failure).toMatch(/Method not found|skills\/get/)
    }
    finally {
      await client.close()
    }
    const fresh = await connectModern(app.url)
    try {
      expect(fresh.getServerCapabilities()?.extensions ?? {}).not.toHaveProperty(['io.modelcontextprotocol/skills'])
    }
    finally {
      await fresh.close()
    }
  }, 2 * POLL_MS)
})
