/**
 * The skills at build time (`server/mcp/skills/`, SEP-2640): finding every skill folder of each
 * layer, checking its `SKILL.md` and its files, computing each file's digest and size once, and
 * the server module that carries them. It must not know how a skill is served: nothing here
 * speaks MCP beyond the `skill://` URI of a file.
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { lstat, readFile, readdir, realpath, stat } from 'node:fs/promises'
import { relative, resolve } from 'pathe'
import { parse as parseYaml } from 'yaml'
import { isRecord } from '../common'
import type { McpSkillFile } from '../../runtime/server/mcp/skills/skills'
import { mimeTypeOf } from './mime'

/** The most bytes one file of a skill may have: a skill is bundled into the server. */
export const MAX_SKILL_FILE_BYTES = 2 * 1024 * 1024
/** The most bytes one skill may have in all: SEP-2640's limit, which every host must accept. */
export const MAX_SKILL_BYTES = 16 * 1024 * 1024
/** The most files one skill may have, `SKILL.md` included: SEP-2640's limit. */
export const MAX_SKILL_FILES = 512
/**
 * The frontmatter `metadata` key a skill's guard is written under: the OAuth scopes a caller
 * needs, space-separated (Agent Skills `metadata` values are strings).
 */
export const SKILL_SCOPES_KEY = 'nuxt-mcp-elicitation/scopes'

/** Agent Skills naming rules: 1–64 lowercase letters, digits and single inner hyphens. */
const NAME_RULE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/**
 * One file of a skill, read and measured at build time.
 *
 * @example
 * ```ts
 * const file: ScannedSkillFile = { uri: 'skill://pdf/notes.txt', path: 'pdf/notes.txt', mimeType: 'text/plain', size: 6, digest: 'sha256:…', text: 'héllo', scopes: [], skillPath: 'pdf', inSkill: 'notes.txt' }
 * ```
 */
export interface ScannedSkillFile extends McpSkillFile {
  /** Its path under `server/mcp/skills/`, `/`-separated. */
  path: string
}

/**
 * One skill: a folder with a `SKILL.md`.
 *
 * @example
 * ```ts
 * const skill: ScannedSkill = { uri: 'skill://pdf/SKILL.md', path: 'pdf', file: 'server/mcp/skills/pdf/SKILL.md', frontmatter: { name: 'pdf', description: '…' }, scopes: [], files: ['skill://pdf/SKILL.md'] }
 * ```
 */
export interface ScannedSkill {
  /** The `skill://…/SKILL.md` URI. */
  uri: string
  /** Its `<skill-path>` under `server/mcp/skills/`. */
  path: string
  /** The `SKILL.md` relative to its layer's root, for messages. */
  file: string
  /** The YAML frontmatter, verbatim. */
  frontmatter: Record<string, unknown>
  scopes: string[]
  /** The URIs of every file of the skill (nested skills' files included), `SKILL.md` first. */
  files: string[]
}

/**
 * Every skill one endpoint serves, and their files (each once, though nested skills share them).
 *
 * @example
 * ```ts
 * const found: ScannedSkills = await scanSkills(layers)
 * ```
 */
export interface ScannedSkills {
  skills: ScannedSkill[]
  files: ScannedSkillFile[]
}

/** A build error about one file of a skill, naming it and the fix. */
function refuse(file: string, problem: string): never {
  throw new Error(`[nuxt-mcp-elicitation] ${file}: ${problem}`)
}

/**
 * The `skill://` URI of a path under `server/mcp/skills/`.
 *
 * @example
 * ```ts
 * skillUri('acme/billing/refunds/SKILL.md') // 'skill://acme/billing/refunds/SKILL.md'
 * ```
 */
export function skillUri(path: string): string {
  return `skill://${path.split('/').map(encodeURIComponent).join('/')}`
}

/**
 * The frontmatter of a `SKILL.md` and what is wrong with it, checked against the Agent Skills
 * rules (`name`, `description`) and the folder it sits in.
 *
 * @example
 * ```ts
 * readSkillFrontmatter('---\nname: refunds\ndescription: Refund a customer\n---\n# …', 'refunds', 'server/mcp/skills/refunds/SKILL.md')
 * // { name: 'refunds', description: 'Refund a customer' }
 * ```
 */
export function readSkillFrontmatter(source: string, folderName: string, file: string): Record<string, unknown> {
  const match = /^(?:\uFEFF)?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(source)
  if (!match) refuse(file, 'SKILL.md must begin with YAML frontmatter between two "---" lines, holding at least `name` and `description` (agentskills.io/specification).')
  let data: unknown
  try {
    data = parseYaml(match[1]!)
  }
  catch (error) {
    refuse(file, `its frontmatter is not valid YAML (${error instanceof Error ? error.message.split('\n')[0] : String(error)}). Fix the YAML between the "---" lines.`)
  }
  if (!isRecord(data)) refuse(file, 'its frontmatter must be a YAML mapping (`name: …` and `description: …` lines).')
  const { name, description, metadata } = data
  if (typeof name !== 'string' || !name) refuse(file, `its frontmatter has no \`name\`. Add \`name: ${folderName}\` (the skill's folder name).`)
  if (name.length > 64 || !NAME_RULE.test(name)) refuse(file, `\`name: ${name}\` breaks the Agent Skills naming rules: 1 to 64 lowercase letters (a-z), digits and hyphens, no hyphen at the start or end and no two in a row. Rename the skill (its \`name\` and its folder).`)
  if (name !== folderName) refuse(file, `\`name: ${name}\` differs from its folder "${folderName}": the last segment of a skill's path is its name. Rename the folder to "${name}" or set \`name: ${folderName}\`.`)
  if (typeof description !== 'string' || !description.trim()) refuse(file, 'its frontmatter has no `description` (1 to 1024 characters: what the skill does and when to use it). Add one.')
  if (description.length > 1024) refuse(file, `its \`description\` has ${description.length} characters; the Agent Skills limit is 1024. Shorten it.`)
  if (metadata !== undefined && !isRecord(metadata)) refuse(file, '`metadata` must be a mapping of string keys to string values (agentskills.io/specification).')
  if (JSON.stringify(data) === undefined || hasNonJsonValue(data)) refuse(file, 'its frontmatter holds a value JSON cannot carry (such as .inf or .nan): clients receive it verbatim as JSON. Quote it as a string.')
  return data
}

function hasNonJsonValue(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value)
  if (Array.isArray(value)) return value.some(hasNonJsonValue)
  if (isRecord(value)) return Object.values(value).some(hasNonJsonValue)
  return value !== null && !['string', 'boolean'].includes(typeof value)
}

/** The scopes a skill's frontmatter asks for, under `metadata['nuxt-mcp-elicitation/scopes']`. */
function scopesOf(frontmatter: Record<string, unknown>, file: string): string[] {
  const metadata = frontmatter.metadata
  const value = isRecord(metadata) ? metadata[SKILL_SCOPES_KEY] : undefined
  if (value === undefined) return []
  if (typeof value !== 'string') refuse(file, `metadata["${SKILL_SCOPES_KEY}"] must be a string of OAuth scopes separated by spaces, e.g. "billing:read admin".`)
  return value.split(/\s+/).filter(Boolean)
}

/** Whether `bytes` are UTF-8 text that survives a round trip as a JSON string. */
function isText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return true
  }
  catch {
    return false
  }
}

/** A file found in a layer's skills folder: its path there and where its bytes are. */
interface FoundFile { path: string, absolute: string }

/**
 * Every file under `root`, refusing what must never be served: dotfiles, symlinks that leave
 * the skills folder or point at a folder, and anything but a regular file.
 */
async function walk(root: string, realRoot: string, dir: string, rootDir: string, out: FoundFile[]): Promise<void> {
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const absolute = resolve(dir, entry.name)
    const shown = relative(rootDir, absolute)
    if (entry.name.startsWith('.')) refuse(shown, 'dotfiles and dot-folders are never served as skill files. Remove it, or move it out of server/mcp/skills/.')
    const info = await lstat(absolute)
    if (info.isSymbolicLink()) {
      const target = await realpath(absolute).catch(() => refuse(shown, 'a symlink whose target does not exist. Remove it.'))
      if (target !== realRoot && !target.startsWith(`${realRoot}/`)) refuse(shown, 'a symlink that leaves server/mcp/skills/ (it points at ' + target + '). Copy the file into the skill instead.')
      if (!(await stat(target)).isFile()) refuse(shown, 'a symlink to a folder: only files may be linked. Copy the folder into the skill instead.')
      out.push({ path: relative(root, absolute), absolute: target })
    }
    else if (info.isDirectory()) await walk(root, realRoot, absolute, rootDir, out)
    else if (info.isFile()) out.push({ path: relative(root, absolute), absolute })
    else refuse(shown, 'not a regular file (a socket, a device or a pipe). Remove it.')
  }
}

/** The skill folder paths of a layer: every folder holding a `SKILL.md`. */
function skillFolders(files: FoundFile[]): string[] {
  return files.filter(file => file.path === 'SKILL.md' || file.path.endsWith('/SKILL.md')).map(file => file.path.slice(0, -'/SKILL.md'.length)).filter(Boolean).sort()
}

function isWithin(path: string, folder: string): boolean {
  return path === folder || path.startsWith(`${folder}/`)
}

/**
 * The skills of one layer: every folder under `skillsDir` holding a `SKILL.md`, checked, with
 * its files measured. Refuses a `SKILL.md` at the root (a skill needs a folder named after it),
 * a file in no skill, and a skill or file over the caps.
 */
async function scanLayer(skillsDir: string, rootDir: string): Promise<ScannedSkills & { outermost: string[] }> {
  const found: FoundFile[] = []
  await walk(skillsDir, await realpath(skillsDir), skillsDir, rootDir, found)
  const shown = (path: string) => relative(rootDir, resolve(skillsDir, path))
  if (found.some(file => file.path === 'SKILL.md')) refuse(shown('SKILL.md'), 'a SKILL.md directly in server/mcp/skills/ has no folder to be named after. Move it into server/mcp/skills/<name>/SKILL.md.')
  const folders = skillFolders(found)
  const outermost = folders.filter(folder => !folders.some(other => other !== folder && isWithin(folder, other)))
  const files: ScannedSkillFile[] = []
  const skills: ScannedSkill[] = []
  const scopesByFolder = new Map<string, string[]>()
  for (const folder of folders) {
    const file = shown(`${folder}/SKILL.md`)
    const frontmatter = readSkillFrontmatter(await readFile(resolve(skillsDir, folder, 'SKILL.md'), 'utf8'), folder.split('/').pop()!, file)
    const scopes = scopesOf(frontmatter, file)
    const outer = outermost.find(root => isWithin(folder, root))!
    if (outer !== folder && scopes.length > 0) refuse(file, `a nested skill cannot carry scopes of its own: its files are part of the enclosing skill "${outer}", whose guard covers them. Put metadata["${SKILL_SCOPES_KEY}"] on ${shown(`${outer}/SKILL.md`)}, or move this skill out of it.`)
    scopesByFolder.set(folder, scopes)
    skills.push({ uri: skillUri(`${folder}/SKILL.md`), path: folder, file, frontmatter, scopes: [], files: [] })
  }
  for (const item of found) {
    const owners = folders.filter(folder => isWithin(item.path, folder))
    if (owners.length === 0) refuse(shown(item.path), 'a file in no skill: every file under server/mcp/skills/ belongs to the nearest folder above it that holds a SKILL.md. Move it into a skill, or out of server/mcp/skills/.')
    const bytes = await readFile(item.absolute)
    if (bytes.length > MAX_SKILL_FILE_BYTES) refuse(shown(item.path), `${bytes.length} bytes, over the ${MAX_SKILL_FILE_BYTES}-byte cap on one skill file (skills are bundled into the server). Shrink or split it, or serve it as a resource of your own.`)
    const innermost = owners.sort((a, b) => b.length - a.length)[0]!
    const outer = outermost.find(root => isWithin(item.path, root))!
    const text = isText(bytes)
    files.push({
      uri: skillUri(item.path),
      path: item.path,
      mimeType: mimeTypeOf(item.path, text),
      size: bytes.length,
      digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
      ...(text ? { text: bytes.toString('utf8') } : { blob: bytes.toString('base64') }),
      scopes: scopesByFolder.get(outer) ?? [],
      skillPath: innermost,
      inSkill: item.path.slice(innermost.length + 1),
    })
  }
  for (const skill of skills) {
    const own = files.filter(file => isWithin(file.path, skill.path))
    // SKILL.md first: the entry hosts read first, then the rest in path order.
    own.sort((a, b) => Number(b.path === `${skill.path}/SKILL.md`) - Number(a.path === `${skill.path}/SKILL.md`) || a.path.localeCompare(b.path))
    const bytes = own.reduce((sum, file) => sum + file.size, 0)
    if (own.length > MAX_SKILL_FILES) refuse(skill.file, `the skill has ${own.length} files, over SEP-2640's limit of ${MAX_SKILL_FILES} (hosts need not load more). Split it into several skills.`)
    if (bytes > MAX_SKILL_BYTES) refuse(skill.file, `the skill has ${bytes} bytes in all, over SEP-2640's limit of ${MAX_SKILL_BYTES} (16 MiB; hosts need not load more). Split it, or shrink its files.`)
    skill.files = own.map(file => file.uri)
    skill.scopes = scopesByFolder.get(outermost.find(root => isWithin(skill.path, root))!) ?? []
  }
  return { skills, files, outermost }
}

/**
 * Finds the skills one endpoint serves in every layer: `server/mcp/skills/` for the default
 * endpoint, `server/mcp/<folder>/skills/` for another. Layers come app first, and a skill's folder
 * comes whole from one layer: a layer's outermost skill is left out when the app (or an earlier
 * layer) has a skill at the same path, inside it or around it.
 *
 * @example
 * ```ts
 * const { skills, files } = await scanSkills([{ serverDir: '/app/server', rootDir: '/app' }])
 * skills[0] // { uri: 'skill://refunds/SKILL.md', path: 'refunds', frontmatter: { name: 'refunds', … }, … }
 * ```
 */
export async function scanSkills(layers: { serverDir: string, rootDir: string }[], folder = ''): Promise<ScannedSkills> {
  const skills: ScannedSkill[] = []
  const files: ScannedSkillFile[] = []
  const taken: string[] = []
  for (const layer of layers) {
    const dir = resolve(layer.serverDir, 'mcp', folder, 'skills')
    if (!existsSync(dir)) continue
    const found = await scanLayer(dir, layer.rootDir)
    const clashes = (path: string) => taken.some(other => isWithin(path, other) || isWithin(other, path))
    const kept = found.outermost.filter(root => !clashes(root))
    skills.push(...found.skills.filter(skill => kept.some(root => isWithin(skill.path, root))))
    files.push(...found.files.filter(file => kept.some(root => isWithin(file.path, root))))
    taken.push(...kept)
  }
  return { skills, files }
}

/**
 * The generated server module of the skills: one `{ skills, files }` per endpoint key (`''` for
 * the default endpoint), as plain data. Empty objects when the app has no skills, so nothing of a
 * skill is bundled then.
 *
 * @example
 * ```ts
 * renderSkillsModule(new Map([['', await scanSkills(layers)]]))
 * // 'export default {"":{"skills":[…],"files":[…]}}\n'
 * ```
 */
export function renderSkillsModule(byEndpoint: Map<string, ScannedSkills>): string {
  const served = [...byEndpoint].filter(([, found]) => found.skills.length > 0)
  return `export default ${JSON.stringify(Object.fromEntries(served.map(([key, { skills, files }]) => [key, {
    skills: skills.map(({ uri, path, frontmatter, scopes, files }) => ({ uri, path, frontmatter, scopes, files })),
    files: files.map(({ path: _path, ...file }) => file),
  }])))}\n`
}
