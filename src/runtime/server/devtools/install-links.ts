// The links and commands that add one endpoint to Cursor, VS Code and Claude Code, in the formats
// each documents. Pure and import-free, like `inspector-link.ts`: the DevTools tab and the
// build-time `nuxi dev` banner give the same ones. Knows nothing of Nitro, the request, or auth:
// what it is given (a name and a URL) is all a link ever carries, so no secret can reach one.

/**
 * What an install link is made from: the name the client files the server under, and its URL.
 *
 * @example
 * ```ts
 * const target: McpInstallTarget = { name: installNameOf('@acme/shop'), url: 'http://localhost:3000/mcp' }
 * ```
 */
export interface McpInstallTarget {
  /** The key in the client's config (`mcpServers.<name>`); made safe by {@link installNameOf} first. */
  name: string
  /** The endpoint's absolute URL, e.g. `http://localhost:3000/mcp`. */
  url: string
}

/**
 * Everything the DevTools tab offers for one endpoint. Links open the client's own install prompt;
 * commands are POSIX shell (bash, zsh) words; configs are the file each client reads.
 *
 * @example
 * ```ts
 * const { cursor, vscode, claude } = buildInstallLinks({ name: 'shop', url: 'http://localhost:3000/mcp' })
 * ```
 */
export interface McpInstallLinks {
  cursor: {
    /** `cursor://anysphere.cursor-deeplink/mcp/install?name=…&config=<base64 JSON>`: opens Cursor's install prompt. */
    link: string
    /** The same through cursor.com's "Add to Cursor" page (for a browser that does not know `cursor://`). */
    web: string
    /** `.cursor/mcp.json` (project) or `~/.cursor/mcp.json`. */
    config: string
  }
  vscode: {
    /** `vscode:mcp/install?<URL-encoded JSON>`: opens VS Code's install prompt. */
    link: string
    /** The same for VS Code Insiders. */
    insiders: string
    /** `code --add-mcp '<json>'`: adds it to the user profile. */
    command: string
    /** `.vscode/mcp.json` (workspace). */
    config: string
  }
  claude: {
    /** `claude mcp add --transport http <name> <url>` (options before the name, as Claude Code requires). */
    command: string
    /** `.mcp.json` at the project root (Claude Code's project scope). */
    config: string
  }
}

/** Characters a POSIX shell word may hold unquoted. */
const SAFE_SHELL_WORD = /^[\w@%+=:,./-]+$/

/**
 * A name every client accepts as a server key: letters, digits, `-` and `_` (Claude Code refuses
 * anything else), other characters become `-`; `mcp` when nothing is left.
 *
 * @example
 * ```ts
 * installNameOf('My Shop (admin)') // 'My-Shop-admin'
 * ```
 */
export function installNameOf(serverName: string): string {
  return serverName.replace(/[^\w-]+/g, '-').replace(/-{2,}/g, '-').replace(/^-+|-+$/g, '') || 'mcp'
}

/**
 * `word` as one POSIX shell word: left bare when it holds nothing the shell reads, else in single
 * quotes (a `'` inside closes, escapes and reopens them).
 *
 * @example
 * ```ts
 * quoteShellWord('http://localhost:3000/mcp') // 'http://localhost:3000/mcp'
 * quoteShellWord('{"a":1}') // `'{"a":1}'`
 * ```
 */
export function quoteShellWord(word: string): string {
  return SAFE_SHELL_WORD.test(word) ? word : `'${word.replaceAll('\'', '\'\\\'\'')}'`
}

/** Base64 of the UTF-8 bytes (`btoa` alone takes Latin-1 only), as in Node and browsers alike. */
function base64Of(text: string): string {
  let binary = ''
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/**
 * The links, commands and config snippets that add `target` to Cursor, VS Code and Claude Code
 * as a remote (Streamable HTTP) server. `target.name` is used as given: pass it through
 * {@link installNameOf}.
 *
 * @example
 * ```ts
 * buildInstallLinks({ name: 'shop', url: 'http://localhost:3000/mcp' }).claude.command
 * // 'claude mcp add --transport http shop http://localhost:3000/mcp'
 * ```
 */
export function buildInstallLinks({ name, url }: McpInstallTarget): McpInstallLinks {
  // Cursor: the server's own mcp.json entry (a URL alone means a remote server), base64-encoded
  // then URL-encoded (base64 holds `+`, `/` and `=`); the name travels beside it.
  const cursorQuery = `name=${encodeURIComponent(name)}&config=${encodeURIComponent(base64Of(JSON.stringify({ url })))}`
  // VS Code: one object, the name inside, the same for the URL handler and `--add-mcp`.
  const vscodeJson = JSON.stringify({ name, type: 'http', url })
  const vscodeQuery = encodeURIComponent(vscodeJson)
  return {
    cursor: {
      link: `cursor://anysphere.cursor-deeplink/mcp/install?${cursorQuery}`,
      web: `https://cursor.com/en/install-mcp?${cursorQuery}`,
      config: JSON.stringify({ mcpServers: { [name]: { url } } }, null, 2),
    },
    vscode: {
      link: `vscode:mcp/install?${vscodeQuery}`,
      insiders: `vscode-insiders:mcp/install?${vscodeQuery}`,
      command: `code --add-mcp ${quoteShellWord(vscodeJson)}`,
      config: JSON.stringify({ servers: { [name]: { type: 'http', url } } }, null, 2),
    },
    claude: {
      command: `claude mcp add --transport http ${quoteShellWord(name)} ${quoteShellWord(url)}`,
      config: JSON.stringify({ mcpServers: { [name]: { type: 'http', url } } }, null, 2),
    },
  }
}
