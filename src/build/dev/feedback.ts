import type { BuildLogger } from '../common'
import type { ScannedDefinition } from '../definitions/scan'
// The runtime values build time uses: pure functions without imports, so the banner and the
// DevTools tab give the same Inspector link, install name and client commands.
import { inspectorCommand, inspectorLink } from '../../runtime/server/devtools/inspector-link'
import { buildInstallLinks, installNameOf } from '../../runtime/server/devtools/install-links'


function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`
}

/**
 * The endpoint and what is served there, e.g. `MCP endpoint: http://localhost:3000/mcp (2 tools,
 * 1 resource, 0 prompts)`.
 */
export function endpointSummary(url: string, found: ScannedDefinition[]): string {
  const count = (kind: ScannedDefinition['kind']) => found.filter(entry => entry.kind === kind).length
  return `MCP endpoint: ${url} (${plural(count('tools'), 'tool')}, ${plural(count('resources'), 'resource')}, ${plural(count('prompts'), 'prompt')})`
}

/**
 * What `nuxi dev` prints once it listens: the endpoint, what was found, and copy-paste client
 * configs for the editors people connect first.
 */
export function printDevBanner(logger: BuildLogger, url: string, serverName: string, found: ScannedDefinition[]): void {
  const name = installNameOf(serverName)
  // The config files on one line each (the tab shows them indented, with links and copy buttons).
  const install = buildInstallLinks({ name, url })
  const oneLine = (config: string) => JSON.stringify(JSON.parse(config))
  logger.info([
    endpointSummary(url, found),
    `  Cursor   .cursor/mcp.json   ${oneLine(install.cursor.config)}`,
    `  VS Code  .vscode/mcp.json   ${oneLine(install.vscode.config)}`,
    `  Claude   ${install.claude.command}`,
    `  Inspector  ${inspectorCommand(url)}  (already running: ${inspectorLink(url)})`,
  ].join('\n'))
}

/**
 * Warnings about mistakes that still build: tools and prompts without a description (models pick
 * tools by it, and some clients refuse them), form schemas that cannot become forms, and a
 * production build whose modern flows would break across instances for want of a shared secret.
 */
export function definitionWarnings(found: ScannedDefinition[], production: boolean): string[] {
  const warnings: string[] = []
  for (const entry of found) {
    if (entry.kind !== 'resources' && !entry.hasDescription) {
      warnings.push(`${entry.file}: the ${entry.kind.slice(0, -1)} "${entry.name}" has no \`description\`. Models choose tools and prompts by it: add one.`)
    }
    if (entry.refusedFormConstructs.length > 0) {
      warnings.push(`${entry.file}: a form() schema uses ${entry.refusedFormConstructs.join(', ')}, which forms cannot hold: the call will fail with 'invalid-schema'. Flatten it into fields (see the elicitation guide's Zod → form table).`)
    }
  }
  if (production && !process.env.NUXT_MCP_STATE_SECRET) {
    warnings.push('NUXT_MCP_STATE_SECRET is not set here. Set it at run time, to one long random value shared by every instance, or modern (2026-07-28) elicitation flows fail when a retry reaches another instance or a restarted server.')
  }
  return warnings
}

/**
 * Logs {@link definitionWarnings} (at `nuxi build` and when `nuxi dev` starts).
 *
 * @example
 * ```ts
 * warnAboutDefinitions(logger, await scanDefinitions(layers), !nuxt.options.dev)
 * ```
 */
export function warnAboutDefinitions(logger: BuildLogger, found: ScannedDefinition[], production: boolean): void {
  for (const warning of definitionWarnings(found, production)) logger.warn(warning)
}

/** What the dev server last told the developer about the definitions. */
export interface DevReport {
  summary: string
  warnings: Set<string>
}

/**
 * After `nuxi dev` scanned the definitions again (a file was added, edited or removed): warns
 * about what is wrong and was not said before, and prints the endpoint line again when what it
 * counts changed. Returns what has now been said, for the next rescan.
 *
 * @example
 * ```ts
 * report = reportRescan(logger, url, report, await scanDefinitions(layers))
 * ```
 */
export function reportRescan(logger: BuildLogger, url: string, previous: DevReport, found: ScannedDefinition[]): DevReport {
  const warnings = new Set(definitionWarnings(found, false))
  for (const warning of warnings) if (!previous.warnings.has(warning)) logger.warn(warning)
  const summary = endpointSummary(url, found)
  if (summary !== previous.summary) logger.info(summary)
  return { summary, warnings }
}
