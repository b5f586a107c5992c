/**
 * A host's side of the skills extension (SEP-2640, `io.modelcontextprotocol/skills`), written from
 * the normative text (modelcontextprotocol/ext-skills, specification/stable/skills.mdx) and not
 * from the module's code: it checks each `Skill` entry's shape, loads a skill by reading every
 * file through `resources/read`, verifies each file's size and SHA-256 digest, and compares the
 * `SKILL.md` frontmatter field by field with the entry's.
 */
import { createHash } from 'node:crypto'
import { isDeepStrictEqual } from 'node:util'
import { parse as parseYaml } from 'yaml'
import { z } from 'zod'
import { isRecord } from '../../src/runtime/server/common/is-record'

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills'

/**
 * The one thing a host needs of its MCP client: send a request, get the result object.
 *
 * @example
 * ```ts
 * const wire: SkillsWire = wireOf(await connectModern(app.url))
 * ```
 */
export interface SkillsWire {
  request: (method: string, params: Record<string, unknown>) => Promise<Record<string, unknown>>
  capabilities: () => Record<string, unknown> | undefined
}

/** Any result object: the host checks its fields itself. */
const ANY_RESULT = z.looseObject({})

/**
 * A {@link SkillsWire} over an SDK client (the v1 `Client` or the v2 one): both send a request
 * of any method with a result schema.
 *
 * @example
 * ```ts
 * const { skills } = await listSkills(wireOf(await connectLegacy(app.url)))
 * ```
 */
export function wireOf(client: { request: (request: { method: string, params?: Record<string, unknown> }, schema: typeof ANY_RESULT) => Promise<Record<string, unknown>>, getServerCapabilities: () => unknown }): SkillsWire {
  return {
    request: (method, params) => client.request({ method, params }, ANY_RESULT),
    capabilities: () => {
      const capabilities = client.getServerCapabilities()
      return isRecord(capabilities) ? capabilities : undefined
    },
  }
}

/** One file of a `Skill` entry (SEP-2640 `SkillResource`), e.g. `{ uri: 'skill://a/SKILL.md', digest: 'sha256:…', size: 42 }`. */
export interface SkillResource { uri: string, digest: string, size: number }
/** A SEP-2640 `Skill` entry, e.g. `{ uri: 'skill://a/SKILL.md', frontmatter: { name: 'a', description: '…' }, resources: [...] }`. */
export interface Skill { uri: string, frontmatter: Record<string, unknown> & { name: string, description: string }, resources: SkillResource[] | 'dynamic' }

/**
 * The extension's settings the server declared, or `undefined` when it did not declare it.
 *
 * @example
 * ```ts
 * skillsDeclaration(wire) // { directoryRead: true }
 * ```
 */
export function skillsDeclaration(wire: SkillsWire): Record<string, unknown> | undefined {
  const extensions = wire.capabilities()?.extensions
  const settings = isRecord(extensions) ? extensions[SKILLS_EXTENSION] : undefined
  return isRecord(settings) ? settings : undefined
}

/**
 * "Skill Entries", "Resource Mapping", "Limits": what is wrong with an entry (empty when nothing).
 *
 * @example
 * ```ts
 * entryProblems({ uri: 'skill://a/b/SKILL.md', frontmatter: { name: 'c', description: 'x' }, resources: [] })
 * // ['skill://a/b/SKILL.md: the final path segment b is not the name c', '…: resources does not list the SKILL.md itself']
 * ```
 */
export function entryProblems(value: unknown): string[] {
  if (!isRecord(value)) return ['an entry is not an object']
  const problems: string[] = []
  const { uri, frontmatter, resources } = value
  if (typeof uri !== 'string' || !uri.endsWith('/SKILL.md')) return [`uri ${String(uri)} does not name a SKILL.md`]
  if (!isRecord(frontmatter) || typeof frontmatter.name !== 'string' || typeof frontmatter.description !== 'string') return [`${uri}: frontmatter lacks name or description`]
  const skillPath = uri.slice(uri.indexOf('://') + 3, -'/SKILL.md'.length)
  const finalSegment = skillPath.split('/').pop()
  if (finalSegment !== frontmatter.name) problems.push(`${uri}: the final path segment ${finalSegment} is not the name ${frontmatter.name}`)
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(frontmatter.name) || frontmatter.name.length > 64) problems.push(`${uri}: the name breaks the Agent Skills naming rules`)
  if (resources === 'dynamic') return problems
  if (!Array.isArray(resources)) return [...problems, `${uri}: resources is neither an array nor "dynamic"`]
  const root = uri.slice(0, -'SKILL.md'.length)
  const seen = new Set<string>()
  let total = 0
  for (const item of resources) {
    if (!isRecord(item) || typeof item.uri !== 'string' || typeof item.digest !== 'string' || typeof item.size !== 'number') {
      problems.push(`${uri}: a resource lacks uri, digest or size`)
      continue
    }
    if (!/^sha256:[0-9a-f]{64}$/.test(item.digest)) problems.push(`${item.uri}: digest ${item.digest} is not sha256:<64 lowercase hex>`)
    if (!Number.isInteger(item.size) || item.size < 0) problems.push(`${item.uri}: size ${item.size} is not a byte count`)
    if (!item.uri.startsWith(root)) problems.push(`${item.uri} is not within the skill ${root}`)
    if (seen.has(item.uri)) problems.push(`${item.uri} is listed twice`)
    seen.add(item.uri)
    total += item.size
  }
  if (!seen.has(uri)) problems.push(`${uri}: resources does not list the SKILL.md itself`)
  if (resources.length > 512 || total > 16 * 1024 * 1024) problems.push(`${uri}: over the per-skill limits`)
  return problems
}

/**
 * The raw bytes of one `resources/read` content: its text as UTF-8, or its base64 blob.
 *
 * @example
 * ```ts
 * bytesOf({ uri, blob: 'AAE=' }) // <Buffer 00 01>
 * ```
 */
export function bytesOf(content: Record<string, unknown>): Buffer {
  if (typeof content.blob === 'string') return Buffer.from(content.blob, 'base64')
  if (typeof content.text === 'string') return Buffer.from(content.text, 'utf8')
  throw new Error(`content of ${String(content.uri)} has neither text nor blob`)
}

/**
 * The YAML frontmatter of a SKILL.md's bytes, as the Agent Skills format writes it.
 *
 * @example
 * ```ts
 * frontmatterOf(Buffer.from('---\nname: a\ndescription: b\n---\n# A')) // { name: 'a', description: 'b' }
 * ```
 */
export function frontmatterOf(bytes: Buffer): unknown {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(bytes.toString('utf8'))
  if (!match) throw new Error('SKILL.md does not begin with YAML frontmatter')
  return parseYaml(match[1]!)
}

/** One verified file of a loaded skill, e.g. `{ uri: 'skill://a/SKILL.md', bytes, mimeType: 'text/markdown' }`. */
export interface LoadedFile { uri: string, bytes: Buffer, mimeType: unknown }

/**
 * "Integrity and Verification": reads every file of `entry` through `resources/read`, checks
 * each one's byte length and SHA-256 against the entry, and the SKILL.md's frontmatter against
 * the entry's, field by field. Throws on any mismatch, naming the file.
 *
 * @example
 * ```ts
 * const files = await loadSkill(wire, skill)
 * files.get('skill://a/SKILL.md')?.bytes.toString()
 * ```
 */
export async function loadSkill(wire: SkillsWire, entry: Skill): Promise<Map<string, LoadedFile>> {
  if (entry.resources === 'dynamic') throw new Error(`${entry.uri} is dynamic: nothing to verify`)
  const loaded = new Map<string, LoadedFile>()
  for (const resource of entry.resources) {
    const result = await wire.request('resources/read', { uri: resource.uri })
    const contents = Array.isArray(result.contents) ? result.contents.filter(isRecord) : []
    const content = contents.find(item => item.uri === resource.uri)
    if (!content) throw new Error(`resources/read of ${resource.uri} returned no content for that URI`)
    const bytes = bytesOf(content)
    if (bytes.length !== resource.size) throw new Error(`${resource.uri}: ${bytes.length} bytes read, the entry says ${resource.size}`)
    const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`
    if (digest !== resource.digest) throw new Error(`${resource.uri}: digest ${digest}, the entry says ${resource.digest}`)
    if (resource.uri === entry.uri && !isDeepStrictEqual(frontmatterOf(bytes), entry.frontmatter)) throw new Error(`${entry.uri}: the frontmatter read differs from the entry's`)
    loaded.set(resource.uri, { uri: resource.uri, bytes, mimeType: content.mimeType })
  }
  return loaded
}

/**
 * Every entry of `skills/list`, following `nextCursor`, each checked.
 *
 * @example
 * ```ts
 * const { skills, pages } = await listSkills(wire)
 * ```
 */
export async function listSkills(wire: SkillsWire): Promise<{ skills: Skill[], pages: Record<string, unknown>[] }> {
  const skills: Skill[] = []
  const pages: Record<string, unknown>[] = []
  let cursor: string | undefined
  do {
    const page = await wire.request('skills/list', cursor === undefined ? {} : { cursor })
    pages.push(page)
    if (!Array.isArray(page.skills)) throw new Error('skills/list returned no skills array')
    for (const entry of page.skills) {
      const problems = entryProblems(entry)
      if (problems.length > 0) throw new Error(problems.join('; '))
      skills.push(entry as Skill)
    }
    cursor = typeof page.nextCursor === 'string' ? page.nextCursor : undefined
  } while (cursor !== undefined)
  return { skills, pages }
}

/**
 * `skills/get` of one URI, its entry checked.
 *
 * @example
 * ```ts
 * const { skill } = await getSkill(wire, 'skill://git-workflow/SKILL.md')
 * ```
 */
export async function getSkill(wire: SkillsWire, uri: string): Promise<{ skill: Skill, result: Record<string, unknown> }> {
  const result = await wire.request('skills/get', { uri })
  const problems = entryProblems(result.skill)
  if (problems.length > 0) throw new Error(problems.join('; '))
  return { skill: result.skill as Skill, result }
}
