import type { ScannedDefinition } from './scan'

interface Logger {
  info: (message: string) => void
  warn: (message: string) => void
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`
}

/**
 * What `nuxi dev` prints once it listens: the endpoint, what was found, and copy-paste client
 * configs for the editors people connect first.
 */
export function printDevBanner(logger: Logger, url: string, serverName: string, found: ScannedDefinition[]): void {
  const count = (kind: ScannedDefinition['kind']) => found.filter(entry => entry.kind === kind).length
  const key = serverName.replace(/[^\w-]/g, '-')
  logger.info([
    `MCP endpoint: ${url} (${plural(count('tools'), 'tool')}, ${plural(count('resources'), 'resource')}, ${plural(count('prompts'), 'prompt')})`,
    `  Cursor   .cursor/mcp.json   ${JSON.stringify({ mcpServers: { [key]: { url } } })}`,
    `  VS Code  .vscode/mcp.json   ${JSON.stringify({ servers: { [key]: { type: 'http', url } } })}`,
    `  Claude   claude mcp add --transport http ${key} ${url}`,
    `  Inspector  npx @modelcontextprotocol/inspector  (Streamable HTTP, ${url})`,
  ].join('\n'))
}

/**
 * Build-time warnings about mistakes that still build: tools and prompts without a description
 * (models pick tools by it, and some clients refuse them), and a production build whose modern
 * flows would break across instances for want of a shared secret.
 */
export function warnAboutDefinitions(logger: Logger, found: ScannedDefinition[], production: boolean): void {
  for (const entry of found) {
    if (entry.kind !== 'resources' && !entry.hasDescription) {
      logger.warn(`${entry.file}: the ${entry.kind.slice(0, -1)} "${entry.name}" has no \`description\`. Models choose tools and prompts by it: add one.`)
    }
    if (entry.refusedFormConstructs.length > 0) {
      logger.warn(`${entry.file}: a form() schema uses ${entry.refusedFormConstructs.join(', ')}, which forms cannot hold: the call will fail with 'invalid-schema'. Flatten it into fields (see the elicitation guide's Zod → form table).`)
    }
  }
  if (production && !process.env.NUXT_MCP_STATE_SECRET) {
    logger.warn('NUXT_MCP_STATE_SECRET is not set here. Set it at run time, to one long random value shared by every instance, or modern (2026-07-28) elicitation flows fail when a retry reaches another instance or a restarted server.')
  }
}
