// The install links and commands of the DevTools tab (src/runtime/server/devtools/install-links.ts),
// each decoded the way its client reads it: Cursor's base64 config out of its query, VS Code's
// URL-encoded JSON, and every shell command split into words by a real POSIX shell (/bin/sh), then
// checked against the endpoint's name and URL. No client is installed here (node_modules/.bin has
// no `code`, `claude` or `cursor`): decoding is the proof.
import { describe, expect, it } from 'vitest'
import { buildInstallLinks, installNameOf, quoteShellWord } from '../../../src/runtime/server/devtools/install-links'
import { describeInstall } from '../../../src/runtime/server/devtools/data'
import type { McpServerConfig } from '../../../src/runtime/server/common/config'
import { readCursorLink, readVscodeLink, shellWords } from '../../utils/install-links'

const ENDPOINTS = [
  { name: 'shop', url: 'http://localhost:3000/mcp' },
  { name: 'shop-admin', url: 'http://localhost:3000/mcp/admin' },
  // What a shell would expand, a quote, a query, and a name's UTF-8 bytes in base64.
  { name: 'bo\'u_tique-é', url: 'http://127.0.0.1:4123/base/mcp/$(id)\'x`y`?a=1&b=2 3' },
]

describe('buildInstallLinks', () => {
  for (const endpoint of ENDPOINTS) {
    describe(`${endpoint.name} at ${endpoint.url}`, () => {
      const links = buildInstallLinks(endpoint)

      it('gives Cursor its deeplink: the name beside a base64 mcp.json entry holding the URL alone', () => {
        expect(links.cursor.link.startsWith('cursor://anysphere.cursor-deeplink/mcp/install?')).toBe(true)
        expect(readCursorLink(links.cursor.link)).toEqual({ keys: ['name', 'config'], name: endpoint.name, config: { url: endpoint.url } })
      })

      it('gives the same through cursor.com\'s "Add to Cursor" page', () => {
        const web = new URL(links.cursor.web)
        expect(`${web.origin}${web.pathname}`).toBe('https://cursor.com/en/install-mcp')
        expect(readCursorLink(links.cursor.web)).toEqual({ keys: ['name', 'config'], name: endpoint.name, config: { url: endpoint.url } })
      })

      it('gives VS Code and VS Code Insiders their install links: one URL-encoded JSON object', () => {
        const config = { name: endpoint.name, type: 'http', url: endpoint.url }
        expect(readVscodeLink(links.vscode.link)).toEqual({ scheme: 'vscode', path: 'mcp/install', config })
        expect(readVscodeLink(links.vscode.insiders)).toEqual({ scheme: 'vscode-insiders', path: 'mcp/install', config })
      })

      it('gives `code --add-mcp` that JSON as one shell word', () => {
        const [code, flag, json, ...rest] = shellWords(links.vscode.command)
        expect([code, flag, rest]).toEqual(['code', '--add-mcp', []])
        expect(JSON.parse(json!)).toEqual({ name: endpoint.name, type: 'http', url: endpoint.url })
      })

      it('gives `claude mcp add` its options before the name, then the URL', () => {
        expect(shellWords(links.claude.command)).toEqual(['claude', 'mcp', 'add', '--transport', 'http', endpoint.name, endpoint.url])
      })

      it('gives each client\'s config file', () => {
        expect(JSON.parse(links.cursor.config)).toEqual({ mcpServers: { [endpoint.name]: { url: endpoint.url } } })
        expect(JSON.parse(links.vscode.config)).toEqual({ servers: { [endpoint.name]: { type: 'http', url: endpoint.url } } })
        expect(JSON.parse(links.claude.config)).toEqual({ mcpServers: { [endpoint.name]: { type: 'http', url: endpoint.url } } })
      })
    })
  }

  it('runs nothing a URL holds when the command is pasted: the shell keeps `$(…)` and backquotes as text', () => {
    const url = 'http://localhost:3000/mcp/$(echo pwned)`echo pwned`'
    expect(shellWords(buildInstallLinks({ name: 'x', url }).claude.command).at(-1)).toBe(url)
  })
})

describe('installNameOf', () => {
  it('makes a server name a key every client accepts: letters, digits, - and _', () => {
    expect(installNameOf('shop')).toBe('shop')
    expect(installNameOf('shop-admin')).toBe('shop-admin')
    expect(installNameOf('@acme/shop')).toBe('acme-shop')
    expect(installNameOf('My Shop (admin)')).toBe('My-Shop-admin')
    expect(installNameOf('my_app')).toBe('my_app')
    expect(installNameOf('café')).toBe('caf')
    expect(installNameOf('!!!')).toBe('mcp')
  })
})

describe('quoteShellWord', () => {
  it('leaves a plain word bare and quotes anything the shell would read', () => {
    expect(quoteShellWord('http://localhost:3000/mcp')).toBe('http://localhost:3000/mcp')
    expect(quoteShellWord('a b')).toBe('\'a b\'')
    for (const word of ['a b', 'it\'s', '$HOME', '*', '~', 'a;b', '{"a":"b"}', '']) expect(shellWords(quoteShellWord(word))).toEqual([word])
  })
})

describe('describeInstall (what the DevTools tab gets for an endpoint)', () => {
  const noAuth: McpServerConfig['auth'] = { issuers: '', resource: '', audiences: '', scopes: '', clockToleranceSeconds: 60, jwksMaxAgeSeconds: 3600, introspection: { clientId: '', clientSecret: '', endpoint: '', issuer: '' } }
  const url = 'http://localhost:3000/mcp/admin'

  it('files the endpoint under its server name made a config key, and says nothing of sign-in while OAuth is off', () => {
    const described = describeInstall(url, { name: '@acme/shop-admin', auth: noAuth })
    expect(described.auth).toBeUndefined()
    expect(described.install.name).toBe('acme-shop-admin')
    expect(shellWords(described.install.claude.command)).toEqual(['claude', 'mcp', 'add', '--transport', 'http', 'acme-shop-admin', url])
  })

  it('with OAuth on, says which scopes the sign-in asks for, and puts no token, secret or issuer in any link or command', () => {
    const secret = 'introspection-secret-value'
    const auth = { ...noAuth, issuers: ['https://auth.example.com'], scopes: 'admin, refunds', introspection: { clientId: 'mcp', clientSecret: secret, endpoint: '', issuer: 'https://auth.example.com' } }
    const described = describeInstall(url, { name: 'shop-admin', auth })
    expect(described.auth).toEqual({ scopes: ['admin', 'refunds'] })
    const everything = JSON.stringify(described.install)
    expect(everything).not.toContain(secret)
    expect(everything).not.toContain('auth.example.com')
    // Decoded, each carries the name and the URL and nothing else.
    expect(readCursorLink(described.install.cursor.link)).toEqual({ keys: ['name', 'config'], name: 'shop-admin', config: { url } })
    expect(readVscodeLink(described.install.vscode.link).config).toEqual({ name: 'shop-admin', type: 'http', url })
  })
})
