import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MAX_SKILL_FILE_BYTES, readSkillFrontmatter, renderSkillsModule, scanSkills, skillUri } from '../../../src/build/skills/scan'
import { mimeTypeOf } from '../../../src/build/skills/mime'

// The build's side of skills on real folders: what it refuses (each refusal naming the file and
// the fix), what it measures, and which layer a skill comes from.

let root: string

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'skills-scan-'))
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

/** Writes `files` (path under `<layer>/server/mcp/skills/` → content) into a layer folder. */
async function layer(name: string, files: Record<string, string | Buffer>): Promise<{ serverDir: string, rootDir: string }> {
  const rootDir = join(root, name)
  for (const [path, content] of Object.entries(files)) {
    const file = join(rootDir, 'server/mcp/skills', path)
    await mkdir(dirname(file), { recursive: true })
    await writeFile(file, content)
  }
  return { serverDir: join(rootDir, 'server'), rootDir }
}

const skillMd = (name: string, extra = '') => `---\nname: ${name}\ndescription: Does ${name}\n${extra}---\n\n# ${name}\n`

async function refusal(layers: { serverDir: string, rootDir: string }[]): Promise<string> {
  return scanSkills(layers).then(() => 'no refusal', (error: unknown) => String(error))
}

describe('readSkillFrontmatter: the Agent Skills rules', () => {
  const file = 'server/mcp/skills/refunds/SKILL.md'
  const read = (source: string, folder = 'refunds') => { try { return readSkillFrontmatter(source, folder, file) } catch (error) { return String(error) } }

  it('returns every field verbatim, unknown ones and nested values included', () => {
    expect(read('---\nname: refunds\ndescription: Refund\nx-extra:\n  a: [1, true, null]\nmetadata:\n  version: "1.0"\n---\nbody')).toEqual({ 'name': 'refunds', 'description': 'Refund', 'x-extra': { a: [1, true, null] }, 'metadata': { version: '1.0' } })
  })

  it.each([
    ['# no frontmatter', 'must begin with YAML frontmatter'],
    ['---\nname: [unclosed\n---\n', 'is not valid YAML'],
    ['---\n- a list\n---\n', 'must be a YAML mapping'],
    ['---\ndescription: x\n---\n', 'has no `name`. Add `name: refunds`'],
    ['---\nname: Refunds\ndescription: x\n---\n', 'breaks the Agent Skills naming rules'],
    ['---\nname: re--funds\ndescription: x\n---\n', 'breaks the Agent Skills naming rules'],
    ['---\nname: -refunds\ndescription: x\n---\n', 'breaks the Agent Skills naming rules'],
    [`---\nname: ${'a'.repeat(65)}\ndescription: x\n---\n`, 'breaks the Agent Skills naming rules'],
    ['---\nname: chargebacks\ndescription: x\n---\n', 'differs from its folder "refunds"'],
    ['---\nname: refunds\n---\n', 'has no `description`'],
    [`---\nname: refunds\ndescription: ${'x'.repeat(1025)}\n---\n`, 'the Agent Skills limit is 1024'],
    ['---\nname: refunds\ndescription: x\nmetadata: text\n---\n', '`metadata` must be a mapping'],
    ['---\nname: refunds\ndescription: x\nlimit: .inf\n---\n', 'a value JSON cannot carry'],
  ])('refuses %j, naming the file', (source, problem) => {
    const message = read(source)
    expect(message).toContain(file)
    expect(message).toContain(problem)
  })
})

describe('scanSkills', () => {
  it('measures every file once: sha256 of the raw bytes, size in bytes, text or base64', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4E, 0x47, 0, 1, 2, 255])
    const found = await scanSkills([await layer('app', { 'pdf/SKILL.md': skillMd('pdf'), 'pdf/assets/x.png': png, 'pdf/notes.txt': 'héllo' })])
    expect(found.skills).toMatchObject([{ uri: 'skill://pdf/SKILL.md', files: ['skill://pdf/SKILL.md', 'skill://pdf/assets/x.png', 'skill://pdf/notes.txt'] }])
    const image = found.files.find(file => file.uri === 'skill://pdf/assets/x.png')
    expect(image).toMatchObject({ size: 8, mimeType: 'image/png', blob: png.toString('base64'), digest: `sha256:${createHash('sha256').update(png).digest('hex')}` })
    expect(found.files.find(file => file.uri === 'skill://pdf/notes.txt')).toMatchObject({ size: 6, text: 'héllo', mimeType: 'text/plain' })
  })

  it('lists a nested skill flat, its files in the enclosing skill too', async () => {
    const found = await scanSkills([await layer('app', { 'acme/refunds/SKILL.md': skillMd('refunds'), 'acme/refunds/partial/SKILL.md': skillMd('partial') })])
    expect(found.skills.map(skill => [skill.uri, skill.files])).toEqual([
      ['skill://acme/refunds/SKILL.md', ['skill://acme/refunds/SKILL.md', 'skill://acme/refunds/partial/SKILL.md']],
      ['skill://acme/refunds/partial/SKILL.md', ['skill://acme/refunds/partial/SKILL.md']],
    ])
    expect(found.files).toHaveLength(2)
  })

  it('takes a skill\'s folder whole from the first layer that has it (the app), and a layer\'s other skills', async () => {
    const app = await layer('app', { 'git/SKILL.md': skillMd('git'), 'outer/inner/SKILL.md': skillMd('inner') })
    const base = await layer('base', { 'git/SKILL.md': skillMd('git', 'license: MIT\n'), 'git/extra.md': 'layer only', 'outer/SKILL.md': skillMd('outer'), 'own/SKILL.md': skillMd('own') })
    const found = await scanSkills([app, base])
    expect(found.skills.map(skill => skill.uri)).toEqual(['skill://git/SKILL.md', 'skill://outer/inner/SKILL.md', 'skill://own/SKILL.md'])
    expect(found.skills[0]!.frontmatter.license).toBeUndefined()
    expect(found.files.map(file => file.uri)).not.toContain('skill://git/extra.md')
  })

  it('reads a skill\'s scopes from metadata, and refuses them on a nested skill', async () => {
    const found = await scanSkills([await layer('app', { 'ops/SKILL.md': skillMd('ops', 'metadata:\n  nuxt-mcp-elicitation/scopes: "a  b"\n') })])
    expect(found.skills[0]!.scopes).toEqual(['a', 'b'])
    expect(found.files[0]!.scopes).toEqual(['a', 'b'])
    const nested = await refusal([await layer('nested', { 'ops/SKILL.md': skillMd('ops'), 'ops/sub/SKILL.md': skillMd('sub', 'metadata:\n  nuxt-mcp-elicitation/scopes: a\n') })])
    expect(nested).toContain('server/mcp/skills/ops/sub/SKILL.md')
    expect(nested).toContain('a nested skill cannot carry scopes of its own')
  })

  it.each([
    ['a dotfile', { 'pdf/SKILL.md': skillMd('pdf'), 'pdf/.env': 'SECRET=1' }, 'server/mcp/skills/pdf/.env', 'dotfiles and dot-folders are never served'],
    ['a dot-folder', { 'pdf/SKILL.md': skillMd('pdf'), 'pdf/.git/config': 'x' }, 'server/mcp/skills/pdf/.git', 'dotfiles and dot-folders are never served'],
    ['a SKILL.md at the root', { 'SKILL.md': skillMd('root') }, 'server/mcp/skills/SKILL.md', 'Move it into server/mcp/skills/<name>/SKILL.md'],
    ['a file in no skill', { 'pdf/SKILL.md': skillMd('pdf'), 'README.md': '# skills' }, 'server/mcp/skills/README.md', 'a file in no skill'],
    ['a file over the cap', { 'pdf/SKILL.md': skillMd('pdf'), 'pdf/big.bin': Buffer.alloc(MAX_SKILL_FILE_BYTES + 1) }, 'server/mcp/skills/pdf/big.bin', `over the ${MAX_SKILL_FILE_BYTES}-byte cap`],
    ['a name unlike its folder', { 'pdf/SKILL.md': skillMd('docs') }, 'server/mcp/skills/pdf/SKILL.md', 'Rename the folder to "docs"'],
  ])('refuses %s, naming the file and the fix', async (_what, files, file, problem) => {
    const message = await refusal([await layer('app', files)])
    expect(message).toContain(file)
    expect(message).toContain(problem)
  })

  it('refuses a skill over 16 MiB in all, naming its SKILL.md', async () => {
    const files: Record<string, string | Buffer> = { 'big/SKILL.md': skillMd('big') }
    for (let index = 0; index < 9; index++) files[`big/part-${index}.bin`] = Buffer.alloc(MAX_SKILL_FILE_BYTES)
    const message = await refusal([await layer('app', files)])
    expect(message).toContain('server/mcp/skills/big/SKILL.md')
    expect(message).toContain('over SEP-2640\'s limit of 16777216')
  })

  it('refuses a symlink that leaves server/mcp/skills/ or points at a folder, and follows one that stays in', async () => {
    const app = await layer('app', { 'pdf/SKILL.md': skillMd('pdf'), 'pdf/real.md': 'real' })
    await writeFile(join(root, 'secret.txt'), 'secret')
    const skills = join(app.serverDir, 'mcp/skills')
    await symlink(join(skills, 'pdf/real.md'), join(skills, 'pdf/alias.md'))
    expect((await scanSkills([app])).files.find(file => file.uri === 'skill://pdf/alias.md')).toMatchObject({ text: 'real' })
    await symlink(join(root, 'secret.txt'), join(skills, 'pdf/leak.txt'))
    const leak = await refusal([app])
    expect(leak).toContain('server/mcp/skills/pdf/leak.txt')
    expect(leak).toContain('a symlink that leaves server/mcp/skills/')
    await rm(join(skills, 'pdf/leak.txt'))
    await mkdir(join(skills, 'pdf/dir'))
    await symlink(join(skills, 'pdf/dir'), join(skills, 'pdf/linked'))
    expect(await refusal([app])).toContain('a symlink to a folder')
  })
})

describe('the generated module and the URIs', () => {
  it('is empty without skills, so a build without them bundles nothing of a skill', () => {
    expect(renderSkillsModule(new Map([['', { skills: [], files: [] }]]))).toBe('export default {}\n')
  })

  it('percent-encodes each path segment of a skill:// URI', () => {
    expect(skillUri('acme/billing/refunds/SKILL.md')).toBe('skill://acme/billing/refunds/SKILL.md')
    expect(skillUri('pdf/templates/Order Form (v2).md')).toBe('skill://pdf/templates/Order%20Form%20(v2).md')
  })

  it('names a file\'s media type by its extension, else by whether it is text', () => {
    expect(mimeTypeOf('a/SKILL.md', true)).toBe('text/markdown')
    expect(mimeTypeOf('a/scripts/run.py', true)).toBe('text/x-python')
    expect(mimeTypeOf('a/LICENSE', true)).toBe('text/plain')
    expect(mimeTypeOf('a/data', false)).toBe('application/octet-stream')
  })
})
