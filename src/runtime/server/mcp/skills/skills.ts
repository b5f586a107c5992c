/**
 * The skills room (`mcp/skills/`): the app's skills (`server/mcp/skills/`, as the build read
 * them) as SEP-2640 `Skill` entries, as `skill://` resources, and as directories; all computed
 * once per endpoint. It must not know guards, the server's handlers or how skills were found
 * (the build measured every file; nothing here hashes per request).
 */
import type { ReadResourceResult, Resource, Server } from '@modelcontextprotocol/server'
import type { McpRequestScope } from '../../common/context'

/** The extension's identifier, under `capabilities.extensions`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills'

/**
 * One file of a skill, as the build measured it (`#mcp-elicitation/skills`).
 *
 * @example
 * ```ts
 * const file: McpSkillFile = { uri: 'skill://refunds/SKILL.md', mimeType: 'text/markdown', size: 120, digest: 'sha256:…', text: '---\nname: refunds…', scopes: [], skillPath: 'refunds', inSkill: 'SKILL.md' }
 * ```
 */
export interface McpSkillFile {
  uri: string
  mimeType: string
  size: number
  /** `sha256:<64 lowercase hex>` of its raw bytes. */
  digest: string
  /** Its content, as text when it is UTF-8 text, else base64 in `blob`. */
  text?: string
  blob?: string
  /** The OAuth scopes a caller needs to see it: its outermost skill's. */
  scopes: string[]
  /** The innermost skill it belongs to, and its path inside it. */
  skillPath: string
  inSkill: string
}

/**
 * One skill, as the build read it.
 *
 * @example
 * ```ts
 * const skill: McpSkillSource = { uri: 'skill://refunds/SKILL.md', path: 'refunds', frontmatter: { name: 'refunds', description: '…' }, scopes: [], files: ['skill://refunds/SKILL.md'] }
 * ```
 */
export interface McpSkillSource {
  /** The `skill://…/SKILL.md` URI. */
  uri: string
  /** Its `<skill-path>`. */
  path: string
  /** Its `SKILL.md` frontmatter, verbatim. */
  frontmatter: Record<string, unknown>
  /** The OAuth scopes a caller needs to see it (`metadata['nuxt-mcp-elicitation/scopes']`). */
  scopes: string[]
  /** The URIs of all its files, `SKILL.md` first, nested skills' included. */
  files: string[]
}

/**
 * The skills one endpoint serves, as the generated module (`#mcp-elicitation/skills`) exports
 * them by endpoint key.
 *
 * @example
 * ```ts
 * const served: McpSkills = { skills: [{ uri: 'skill://refunds/SKILL.md', path: 'refunds', frontmatter, scopes: [], files: ['skill://refunds/SKILL.md'] }], files: [file] }
 * ```
 */
export interface McpSkills {
  skills: McpSkillSource[]
  files: McpSkillFile[]
}

/**
 * A SEP-2640 `Skill` entry: what `skills/list` and `skills/get` answer with.
 *
 * @example
 * ```ts
 * const entry: SkillEntry = { uri: 'skill://refunds/SKILL.md', frontmatter: { name: 'refunds', description: '…' }, resources: [{ uri: 'skill://refunds/SKILL.md', digest: 'sha256:…', size: 120 }] }
 * ```
 */
export interface SkillEntry {
  uri: string
  frontmatter: Record<string, unknown>
  resources: { uri: string, digest: string, size: number }[]
}

/**
 * An endpoint's skills, ready to serve: what the registry lists and reads as resources, and what
 * the server factory advertises and installs. Made by `serveSkills()` (`mcp/server/skills.ts`),
 * which the build bundles only when the app has skills: everything here is a type.
 *
 * @example
 * ```ts
 * const serving: McpSkillServing | undefined = serveSkills && skills[key] && serveSkills(skills[key])
 * ```
 */
export interface McpSkillServing {
  /**
   * Adds each skill file to the registry's fixed resources and their list, guarded by its
   * skill's scopes; a resource of the app at a skill file's URI is an error naming it.
   */
  register: (resources: Map<string, SkillRegisteredResource>, list: Resource[]) => void
  /** Whether any skill carries scopes (lists then depend on the caller). */
  guarded: boolean
  /** What `capabilities.extensions` gains. */
  capability: Record<string, { directoryRead: true }>
  /** Installs `skills/list`, `skills/get` and `resources/directory/read` on one SDK server. */
  install: (server: Server, caller: () => McpRequestScope | undefined) => void
}

/**
 * What the registry keeps a skill file as: the shape of its fixed resources, written here so the
 * skills room needs nothing of the definitions room.
 *
 * @example
 * ```ts
 * const entry: SkillRegisteredResource = { name: 'skill://a/SKILL.md', file: 'the skill file skill://a/SKILL.md', definition: { uri: 'skill://a/SKILL.md', scopes: [], handler: () => read } }
 * ```
 */
export interface SkillRegisteredResource {
  name: string
  file: string
  // Method syntax: the registry's handlers take a context this room does not know (parameters compare bivariantly).
  definition: { uri: string, name?: string, mimeType?: string, scopes?: readonly string[], handler(uri: URL, variables: Record<string, string | string[]>, context: never): unknown }
}

/**
 * One child of a directory resource, with the scopes of every file below it (a child is seen when any is).
 *
 * @example
 * ```ts
 * const child: DirectoryChild = { resource: { uri: 'skill://refunds/examples', name: 'examples', mimeType: 'inode/directory' }, scopes: [[]] }
 * ```
 */
export interface DirectoryChild {
  resource: Resource
  scopes: string[][]
}

/**
 * Everything about an endpoint's skills that can be computed once: the entries (in path order),
 * the files by URI, and each directory's direct children by the directory's URI.
 *
 * @example
 * ```ts
 * const catalog = createSkillCatalog(skills[''])
 * catalog.entries.get('skill://refunds/SKILL.md')?.entry.resources
 * ```
 */
export interface SkillCatalog {
  entries: Map<string, { entry: SkillEntry, scopes: string[] }>
  files: Map<string, McpSkillFile>
  directories: Map<string, DirectoryChild[]>
  /** Whether any skill carries scopes: only then do lists and cache hints depend on the caller. */
  guarded: boolean
}

/** The name a file is listed with: a `SKILL.md` by its skill's name, any other by its path in its skill. */
function listedName(file: McpSkillFile, skills: Map<string, McpSkillSource>): string {
  const name = file.inSkill === 'SKILL.md' ? skills.get(file.skillPath)?.frontmatter.name : undefined
  return typeof name === 'string' ? name : file.inSkill
}

/**
 * The `resources/list` entry of a skill file: a `SKILL.md` named and described from its
 * frontmatter (SEP-2640 "Resource Metadata"), any other file by its path inside its skill.
 *
 * @example
 * ```ts
 * skillFileResource(file, skillsByPath) // { uri: 'skill://refunds/SKILL.md', name: 'refunds', description: '…', mimeType: 'text/markdown', size: 120 }
 * ```
 */
export function skillFileResource(file: McpSkillFile, skills: Map<string, McpSkillSource>): Resource {
  const skill = file.inSkill === 'SKILL.md' ? skills.get(file.skillPath) : undefined
  const description = skill?.frontmatter.description
  return { uri: file.uri, name: listedName(file, skills), ...(typeof description === 'string' && { description }), mimeType: file.mimeType, size: file.size }
}

/**
 * What `resources/read` answers for a skill file: its bytes exactly as measured, as text or as
 * base64, so a client's digest of them matches the entry's.
 *
 * @example
 * ```ts
 * readSkillFile(file) // { contents: [{ uri: 'skill://refunds/SKILL.md', mimeType: 'text/markdown', text: '---\nname: refunds…' }] }
 * ```
 */
export function readSkillFile(file: McpSkillFile): ReadResourceResult {
  const content = file.blob === undefined ? { text: file.text ?? '' } : { blob: file.blob }
  return { contents: [{ uri: file.uri, mimeType: file.mimeType, ...content }] }
}

/** Every directory URI above `uri` within its scheme: `skill://a/b/c.md` gives `skill://a` and `skill://a/b`. */
function directoriesAbove(uri: string): string[] {
  const segments = uri.slice('skill://'.length).split('/')
  return segments.slice(0, -1).map((_, index) => `skill://${segments.slice(0, index + 1).join('/')}`)
}

function buildDirectories(files: McpSkillFile[], skills: Map<string, McpSkillSource>): Map<string, DirectoryChild[]> {
  const children = new Map<string, Map<string, DirectoryChild>>()
  const childOf = (directory: string, uri: string, resource: () => Resource) => {
    let byUri = children.get(directory)
    if (!byUri) children.set(directory, byUri = new Map())
    let child = byUri.get(uri)
    if (!child) byUri.set(uri, child = { resource: resource(), scopes: [] })
    return child
  }
  for (const file of files) {
    const above = directoriesAbove(file.uri)
    above.forEach((directory, index) => {
      const uri = above[index + 1] ?? file.uri
      const name = decodeURIComponent(uri.slice(uri.lastIndexOf('/') + 1))
      const child = childOf(directory, uri, () => uri === file.uri ? { ...skillFileResource(file, skills), name } : { uri, name, mimeType: 'inode/directory' })
      child.scopes.push(file.scopes)
    })
  }
  return new Map([...children].map(([directory, byUri]) => [directory, [...byUri.values()].sort((a, b) => a.resource.uri.localeCompare(b.resource.uri))]))
}

/**
 * Builds an endpoint's {@link SkillCatalog} from what the build found (nothing when it has no skills).
 *
 * @example
 * ```ts
 * const catalog = createSkillCatalog({ skills, files })
 * catalog.entries.size // 2
 * ```
 */
export function createSkillCatalog(served: McpSkills | undefined): SkillCatalog {
  const files = new Map((served?.files ?? []).map(file => [file.uri, file]))
  const byPath = new Map((served?.skills ?? []).map(skill => [skill.path, skill]))
  const entries = new Map((served?.skills ?? []).map((skill) => {
    const resources = skill.files.map((uri) => {
      const file = files.get(uri)
      if (!file) throw new Error(`[nuxt-mcp-elicitation] The skill ${skill.uri} lists ${uri}, which the build did not bundle. Rebuild the app.`)
      return { uri, digest: file.digest, size: file.size }
    })
    return [skill.uri, { entry: { uri: skill.uri, frontmatter: skill.frontmatter, resources }, scopes: skill.scopes }]
  }))
  return { entries, files, directories: buildDirectories([...files.values()], byPath), guarded: [...byPath.values()].some(skill => skill.scopes.length > 0) }
}

/**
 * Adds every skill file to a registry's fixed resources (`resources`, by URI) and their list, in
 * the order the build found them: guarded by their skill's scopes, read from the measured bytes.
 *
 * @example
 * ```ts
 * registerSkillFiles(served, registry.resources, registry.lists.resources)
 * ```
 */
export function registerSkillFiles(served: McpSkills, resources: Map<string, SkillRegisteredResource>, list: Resource[]): void {
  const byPath = new Map(served.skills.map(skill => [skill.path, skill]))
  for (const file of served.files) {
    const { uri } = file
    const other = resources.get(uri)
    if (other) throw new Error(`[nuxt-mcp-elicitation] The resource "${other.name}" (${other.file}) has the URI ${uri}, which a skill file in server/mcp/skills/ serves. Give the resource another URI: skill:// belongs to the skills.`)
    const resource = skillFileResource(file, byPath)
    resources.set(uri, { name: uri, file: `the skill file ${uri}`, definition: { uri, name: resource.name, mimeType: file.mimeType, scopes: file.scopes, handler: () => readSkillFile(file) } })
    list.push(resource)
  }
}
