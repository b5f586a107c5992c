/**
 * Reads the DevTools tab's install links and commands the way each client does, written from the
 * clients' documentation, not from src/: Cursor's deeplink (`name`, and `config` as base64 JSON),
 * VS Code's `vscode:mcp/install?<URL-encoded JSON>`, and shell commands split into words by a real
 * POSIX shell (`/bin/sh`, which runs nothing of them: `set --` only assigns the words).
 */
import { execFileSync } from 'node:child_process'

/**
 * The words `/bin/sh` makes of `command`, as a terminal would pass them to the program.
 *
 * @example
 * ```ts
 * shellWords(`code --add-mcp '{"a":1}'`) // ['code', '--add-mcp', '{"a":1}']
 * ```
 */
export function shellWords(command: string): string[] {
  const out = execFileSync('sh', ['-c', `set -- ${command}; printf '%s\\0' "$@"`], { encoding: 'utf8' })
  return out.split('\0').slice(0, -1)
}

/** Canonical base64 only (what a strict decoder accepts): anything else throws, naming the text. */
function decodeBase64(text: string): string {
  const decoded = Buffer.from(text, 'base64')
  if (decoded.toString('base64') !== text) throw new Error(`not canonical base64: ${text}`)
  return decoded.toString('utf8')
}

/**
 * A Cursor install link's (`cursor://…/mcp/install` or cursor.com's page) query: its parameter
 * names in order, the `name`, and the `config` decoded from base64 JSON.
 *
 * @example
 * ```ts
 * readCursorLink(href) // { keys: ['name', 'config'], name: 'shop', config: { url: 'http://localhost:3000/mcp' } }
 * ```
 */
export function readCursorLink(link: string): { keys: string[], name: string | null, config: unknown } {
  const { searchParams } = new URL(link)
  return { keys: [...searchParams.keys()], name: searchParams.get('name'), config: JSON.parse(decodeBase64(searchParams.get('config') ?? '')) }
}

/**
 * The scheme, path and JSON object of a VS Code install link (`vscode:mcp/install?…`).
 *
 * @example
 * ```ts
 * readVscodeLink(href) // { scheme: 'vscode', path: 'mcp/install', config: { name: 'shop', type: 'http', url: '…' } }
 * ```
 */
export function readVscodeLink(link: string): { scheme: string, path: string, config: unknown } {
  const url = new URL(link)
  return { scheme: url.protocol.slice(0, -1), path: url.pathname, config: JSON.parse(decodeURIComponent(url.search.slice(1))) }
}
