import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, connectModern } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { postModern } from '../../utils/raw'
import { getSkill, listSkills, loadSkill, skillsDeclaration, wireOf } from '../../utils/skills-host'
import type { Skill, SkillsWire } from '../../utils/skills-host'

// Skills (server/mcp/skills/, SEP-2640) served to a host written from the extension's text
// (test/utils/skills-host.ts), through the v1 Client (2025-11-25, where the module offers the
// extension too) and the v2 Client (2026-07-28). The fixture: the app's skills, a layer's (its
// `git-workflow` hidden by the app's), a nested skill, a binary file, and a skill guarded by a scope.
let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('skills')
}, 300_000)
afterAll(async () => {
  await app?.stop()
})

const ADMIN = { 'x-scopes': 'skills:admin' }
const PUBLIC_SKILLS = ['skill://acme/billing/refunds/SKILL.md', 'skill://acme/billing/refunds/partial/SKILL.md', 'skill://git-workflow/SKILL.md', 'skill://layer-only/SKILL.md']

const eras = [
  { era: '2025-11-25 (v1 Client)', connect: (headers: Record<string, string> = {}) => connectLegacy(app.url, { requestInit: { headers } }) },
  { era: '2026-07-28 (v2 Client)', connect: (headers: Record<string, string> = {}) => connectModern(app.url, { requestInit: { headers } }) },
]

/** Runs `use` with a connected host of one era, as one caller. */
async function withHost<T>(connect: (headers?: Record<string, string>) => Promise<{ close: () => Promise<void> } & Parameters<typeof wireOf>[0]>, use: (wire: SkillsWire) => Promise<T>, headers: Record<string, string> = {}): Promise<T> {
  const client = await connect(headers)
  try {
    return await use(wireOf(client))
  }
  finally {
    await client.close()
  }
}

/** The JSON-RPC error a request fails with, as `code message`. */
async function failure(wire: SkillsWire, method: string, params: Record<string, unknown>): Promise<string> {
  return wire.request(method, params).then(result => `no error: ${JSON.stringify(result)}`, (error: unknown) => {
    const { code, message } = error as { code?: number, message?: string }
    return `${code} ${message}`
  })
}

describe.each(eras)('skills, $era', ({ connect }) => {
  it('declares the extension with directoryRead, beside the resources capability', async () => {
    await withHost(connect, async (wire) => {
      expect(skillsDeclaration(wire)).toEqual({ directoryRead: true })
      expect(wire.capabilities()?.resources).toBeDefined()
    })
  })

  it('lists every skill flat, nested ones included, and each file read verifies against its digest and size', async () => {
    await withHost(connect, async (wire) => {
      const { skills } = await listSkills(wire)
      expect(skills.map(skill => skill.uri).sort()).toEqual(PUBLIC_SKILLS)
      const read = new Set<string>()
      for (const skill of skills) for (const uri of (await loadSkill(wire, skill)).keys()) read.add(uri)
      // refunds (3, partial/SKILL.md among them), git-workflow (3), layer-only (1)
      expect(read.size).toBe(7)
    })
  })

  it('passes the frontmatter verbatim, fields it does not know included', async () => {
    await withHost(connect, async (wire) => {
      const { skill } = await getSkill(wire, 'skill://git-workflow/SKILL.md')
      expect(skill.frontmatter).toEqual({
        'name': 'git-workflow',
        'description': 'Follow this team\'s Git conventions for branching and commits',
        'license': 'Apache-2.0',
        'compatibility': 'Needs git 2.40 or later',
        'allowed-tools': 'Bash(git:*)',
        'metadata': { version: '2.1.0', owner: 'platform-team' },
        'x-review': { required: true, reviewers: ['alice', 'bob'], threshold: 2 },
      })
    })
  })

  it('serves the app\'s skill where a layer has one at the same path, and the layer\'s others', async () => {
    await withHost(connect, async (wire) => {
      const { skill } = await getSkill(wire, 'skill://git-workflow/SKILL.md')
      const files = await loadSkill(wire, skill)
      expect(files.get('skill://git-workflow/SKILL.md')?.bytes.toString()).toContain('# Git workflow (the app\'s)')
      expect((await getSkill(wire, 'skill://layer-only/SKILL.md')).skill.frontmatter.description).toBe('A skill only the layer ships')
    })
  })

  it('lists a nested skill\'s files in the enclosing skill too, and the nested skill as its own entry', async () => {
    await withHost(connect, async (wire) => {
      const outer = (await getSkill(wire, 'skill://acme/billing/refunds/SKILL.md')).skill
      const inner = (await getSkill(wire, 'skill://acme/billing/refunds/partial/SKILL.md')).skill
      expect(outer.resources !== 'dynamic' && outer.resources.map(item => item.uri)).toEqual([
        'skill://acme/billing/refunds/SKILL.md',
        'skill://acme/billing/refunds/examples/email.md',
        'skill://acme/billing/refunds/partial/SKILL.md',
      ])
      expect(inner.frontmatter.name).toBe('partial')
      expect(inner.resources).toEqual(outer.resources !== 'dynamic' && [outer.resources[2]])
    })
  })

  it('serves a binary file as a blob whose bytes are the file\'s', async () => {
    await withHost(connect, async (wire) => {
      const { skill } = await getSkill(wire, 'skill://git-workflow/SKILL.md')
      const logo = (await loadSkill(wire, skill)).get('skill://git-workflow/assets/logo.png')
      expect(logo?.mimeType).toBe('image/png')
      expect(logo?.bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
      const read = await wire.request('resources/read', { uri: 'skill://git-workflow/assets/logo.png' })
      expect(read.contents).toEqual([expect.objectContaining({ blob: expect.any(String) })])
    })
  })

  it('gives skills/get the same entry as skills/list', async () => {
    await withHost(connect, async (wire) => {
      const { skills } = await listSkills(wire)
      for (const listed of skills) expect((await getSkill(wire, listed.uri)).skill).toEqual(listed)
    })
  })

  it('lists the skill files among the resources, a SKILL.md named and described from its frontmatter', async () => {
    await withHost(connect, async (wire) => {
      const { resources } = await wire.request('resources/list', {}) as { resources: { uri: string, name: string, description?: string, mimeType?: string }[] }
      const skillFiles = resources.filter(resource => resource.uri.startsWith('skill://'))
      expect(skillFiles).toHaveLength(7)
      expect(skillFiles.find(resource => resource.uri === 'skill://acme/billing/refunds/SKILL.md')).toMatchObject({ name: 'refunds', description: 'Process customer refund requests per company policy', mimeType: 'text/markdown' })
    })
  })

  it('reads directories: each level\'s direct children, subdirectories as inode/directory', async () => {
    await withHost(connect, async (wire) => {
      const root = await wire.request('resources/directory/read', { uri: 'skill://git-workflow' }) as { resources: { uri: string, mimeType?: string }[] }
      expect(root.resources.map(item => [item.uri, item.mimeType])).toEqual([
        ['skill://git-workflow/assets', 'inode/directory'],
        ['skill://git-workflow/references', 'inode/directory'],
        ['skill://git-workflow/SKILL.md', 'text/markdown'],
      ])
      const prefix = await wire.request('resources/directory/read', { uri: 'skill://acme' }) as { resources: { uri: string }[] }
      expect(prefix.resources.map(item => item.uri)).toEqual(['skill://acme/billing'])
      expect(await failure(wire, 'resources/directory/read', { uri: 'skill://git-workflow/SKILL.md' })).toMatch(/^-32602 .*skill:\/\/git-workflow\/SKILL\.md is not a directory resource/)
      expect(await failure(wire, 'resources/directory/read', { uri: 'skill://git-workflow/' })).toMatch(/^-32602 .*No directory is served at skill:\/\/git-workflow\/.*no trailing slash/)
    })
  })

  it('answers unknown skills and files with -32602, naming the URI', async () => {
    await withHost(connect, async (wire) => {
      expect(await failure(wire, 'skills/get', { uri: 'skill://acme/billing/chargebacks/SKILL.md' })).toMatch(/^-32602 .*No skill is served at skill:\/\/acme\/billing\/chargebacks\/SKILL\.md/)
      expect(await failure(wire, 'skills/get', { uri: 'skill://git-workflow/references/GUIDE.md' })).toMatch(/^-32602 .*must be the URI of a skill's SKILL\.md/)
      expect(await failure(wire, 'resources/read', { uri: 'skill://git-workflow/missing.md' })).toMatch(/^-32602 .*skill:\/\/git-workflow\/missing\.md/)
    })
  })

  it('refuses every path traversal through a skill:// URI as an unknown resource', async () => {
    await withHost(connect, async (wire) => {
      for (const uri of [
        'skill://git-workflow/../admin-ops/SKILL.md',
        'skill://git-workflow/references/../SKILL.md',
        'skill://git-workflow/%2E%2E/admin-ops/SKILL.md',
        'skill://git-workflow/..%2Fadmin-ops%2FSKILL.md',
        'skill://../../../../etc/passwd',
        'skill://git-workflow//SKILL.md',
        'skill://git-workflow/./SKILL.md',
      ]) {
        expect(await failure(wire, 'resources/read', { uri }), uri).toMatch(/^-32602 /)
        expect(await failure(wire, 'skills/get', { uri }), uri).toMatch(/^-32602 /)
      }
      expect(await failure(wire, 'resources/directory/read', { uri: 'skill://git-workflow/references/..' })).toMatch(/^-32602 /)
    })
  })

  it('hides a guarded skill from a caller without its scope: not listed, not readable, not a directory', async () => {
    await withHost(connect, async (wire) => {
      expect((await listSkills(wire)).skills.map(skill => skill.uri)).not.toContain('skill://admin-ops/SKILL.md')
      const { resources } = await wire.request('resources/list', {}) as { resources: { uri: string }[] }
      expect(resources.map(item => item.uri)).not.toContain('skill://admin-ops/SKILL.md')
      const hidden = await failure(wire, 'skills/get', { uri: 'skill://admin-ops/SKILL.md' })
      const unknown = await failure(wire, 'skills/get', { uri: 'skill://no-such/SKILL.md' })
      expect(hidden.replace('admin-ops', 'X')).toBe(unknown.replace('no-such', 'X'))
      expect(await failure(wire, 'resources/read', { uri: 'skill://admin-ops/SKILL.md' })).toMatch(/^-32602 /)
      expect(await failure(wire, 'resources/directory/read', { uri: 'skill://admin-ops' })).toMatch(/^-32602 /)
      // A hidden file read as a directory is answered as an unknown URI: nothing says it is there.
      const hiddenFile = await failure(wire, 'resources/directory/read', { uri: 'skill://admin-ops/SKILL.md' })
      const unknownFile = await failure(wire, 'resources/directory/read', { uri: 'skill://no-such/SKILL.md' })
      expect(hiddenFile.replace('admin-ops', 'X')).toBe(unknownFile.replace('no-such', 'X'))
      const visibleFile = await failure(wire, 'resources/directory/read', { uri: 'skill://git-workflow/SKILL.md' })
      expect(visibleFile).toContain('is not a directory resource (it is a file')
    })
  })

  it('lists and serves the guarded skill to a caller with its scope', async () => {
    await withHost(connect, async (wire) => {
      const { skills } = await listSkills(wire)
      const admin = skills.find(skill => skill.uri === 'skill://admin-ops/SKILL.md') as Skill
      expect(admin.frontmatter.metadata).toEqual({ 'nuxt-mcp-elicitation/scopes': 'skills:admin' })
      expect((await loadSkill(wire, admin)).size).toBe(1)
      expect(await wire.request('resources/directory/read', { uri: 'skill://admin-ops' })).toMatchObject({ resources: [{ uri: 'skill://admin-ops/SKILL.md' }] })
    }, ADMIN)
  })
})

describe('skills on the 2026-07-28 wire', () => {
  it('gives skills/list and skills/get resultType, ttlMs and cacheScope (private: a skill is guarded)', async () => {
    const list = await postModern(app.url, 'skills/list', {})
    expect(list.message.result).toMatchObject({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'private' })
    const get = await postModern(app.url, 'skills/get', { uri: 'skill://layer-only/SKILL.md' })
    expect(get.message.result).toMatchObject({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'private', skill: { uri: 'skill://layer-only/SKILL.md' } })
  })
})
