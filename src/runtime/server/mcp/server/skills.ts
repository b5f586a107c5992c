/**
 * The skills extension's methods (SEP-2640): `skills/list`, `skills/get` and
 * `resources/directory/read`, answered from the endpoint's skill catalog behind the skills'
 * guards, and {@link serveSkills}, which puts an endpoint's skills together. The files themselves
 * are ordinary resources (`resources/read`, in `handlers.ts`). Only a build with skills bundles
 * this file (the `#mcp-elicitation/skills-runtime` wing): nothing else imports it.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'
import type { Server, StandardSchemaV1 } from '@modelcontextprotocol/server'
import { isRecord } from '../../common/is-record'
import { PAGE_PARAMS } from '../../common/standard-schema'
import type { McpRequestScope } from '../../common/context'
import { mayUse } from '../definitions/guards'
import type { McpSkills, McpSkillServing, SkillCatalog, SkillEntry } from '../skills/skills'
import { createSkillCatalog, registerSkillFiles, SKILLS_EXTENSION } from '../skills/skills'

/**
 * How long a client may treat a skill listing or entry as current (2026-07-28 `ttlMs`): five
 * minutes, as SEP-2640's examples. The skills change only with a new build, and a host verifies
 * every file it reads against the entry's digests whatever the hint.
 */
export const SKILLS_TTL_MS = 300_000

/**
 * What the extension advertises under `capabilities.extensions`, in both eras: every directory
 * under `skill://` answers `resources/directory/read`.
 *
 * @example
 * ```ts
 * capabilities.extensions = { ...skillsCapability(registry.skills) }
 * // { 'io.modelcontextprotocol/skills': { directoryRead: true } } when there are skills, else {}
 * ```
 */
export function skillsCapability(catalog: SkillCatalog): Record<string, { directoryRead: true }> {
  return catalog.entries.size > 0 ? { [SKILLS_EXTENSION]: { directoryRead: true } } : {}
}

const URI_PARAMS: StandardSchemaV1<unknown, { uri: string }> = {
  '~standard': {
    version: 1,
    vendor: 'nuxt-mcp-elicitation',
    validate: value => isRecord(value) && typeof value.uri === 'string'
      ? { value: { uri: value.uri } }
      : { issues: [{ message: 'params.uri must be a string: the URI of a skill\'s SKILL.md (skills/get) or of a directory (resources/directory/read)', path: ['uri'] }] },
  },
}

/**
 * Installs the extension's methods on `server` when the endpoint has skills. A hidden skill (its
 * scopes not granted) is absent from `skills/list` and answered as unknown by `skills/get`; a
 * directory lists only what the caller may see. `skills/list` and `skills/get` carry `ttlMs` and
 * `cacheScope` in both eras (`private` once any skill is guarded: the answer then depends on who
 * asks; `ttlMs` 0 in `nuxi dev`, where skills change while it runs).
 *
 * @example
 * ```ts
 * installSkillHandlers(server, registry.skills, () => getMcpScope(), SKILLS_TTL_MS)
 * ```
 */
export function installSkillHandlers(server: Server, catalog: SkillCatalog, caller: () => McpRequestScope | undefined, ttlMs = SKILLS_TTL_MS): void {
  if (catalog.entries.size === 0) return
  const hint = { resultType: 'complete', ttlMs, cacheScope: catalog.guarded ? 'private' : 'public' } as const
  const allowed = (scopes: string[], name: string) => mayUse({ scopes }, caller(), name)

  server.setRequestHandler('skills/list', { params: PAGE_PARAMS }, async () => {
    const all = [...catalog.entries.values()]
    const verdicts = await Promise.all(all.map(({ entry, scopes }) => allowed(scopes, entry.uri)))
    const skills: SkillEntry[] = all.filter((_, index) => verdicts[index]).map(({ entry }) => entry)
    return { skills, ...hint }
  })

  server.setRequestHandler('skills/get', { params: URI_PARAMS }, async ({ uri }) => {
    const found = catalog.entries.get(uri)
    if (!found || !await allowed(found.scopes, uri)) {
      const hintAt = uri.endsWith('/SKILL.md') ? 'Call skills/list for the skills it serves.' : 'params.uri must be the URI of a skill\'s SKILL.md, e.g. skill://<skill-path>/SKILL.md.'
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No skill is served at ${uri}. ${hintAt}`, { uri })
    }
    return { skill: found.entry, ...hint }
  })

  server.setRequestHandler('resources/directory/read', { params: URI_PARAMS }, async ({ uri }) => {
    const children = catalog.directories.get(uri)
    const verdicts = await Promise.all((children ?? []).map(child => Promise.all(child.scopes.map(scopes => allowed(scopes, child.resource.uri)))))
    const resources = (children ?? []).filter((_, index) => verdicts[index]!.some(Boolean)).map(child => child.resource)
    // A directory whose every file is hidden from the caller does not exist for them; nor does a
    // hidden file (told apart from an unknown URI, it would say the guarded file is there).
    if (resources.length === 0) {
      const file = catalog.files.get(uri)
      const why = file && await allowed(file.scopes, uri) ? `${uri} is not a directory resource (it is a file: read it with resources/read)` : `No directory is served at ${uri}`
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${why}. Directory URIs have no trailing slash, e.g. skill://<skill-path>/templates.`, { uri })
    }
    return { resources, resultType: 'complete' }
  })
}

/**
 * An endpoint's skills, ready to serve: their files as resources, the extension's capability and
 * its methods, all computed once from what the build measured.
 *
 * @example
 * ```ts
 * const serving = serveSkills(skills[''], { dev: import.meta.dev })
 * serving.install(server, () => getMcpScope())
 * ```
 */
export function serveSkills(served: McpSkills, options: { dev?: boolean } = {}): McpSkillServing {
  // `nuxi dev` serves an edited skill at once: a client must not keep the old list for minutes.
  const ttlMs = options.dev ? 0 : SKILLS_TTL_MS
  const catalog = createSkillCatalog(served)
  return {
    register: (resources, list) => registerSkillFiles(served, resources, list),
    guarded: catalog.guarded,
    capability: skillsCapability(catalog),
    install: (server, caller) => installSkillHandlers(server, catalog, caller, ttlMs),
  }
}
