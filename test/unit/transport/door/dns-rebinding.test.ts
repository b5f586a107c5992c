import { describe, expect, it } from 'vitest'
import { isAllowedHost, publicHostOf } from '../../../../src/runtime/server/transport/door/security'
import type { OriginPolicy } from '../../../../src/runtime/server/transport/door/security'

const none: OriginPolicy = { allowedHosts: [], allowedOrigins: [] }

describe('the DNS-rebinding rule (Host header only)', () => {
  it('passes loopback names and IP literals, with or without a port', () => {
    for (const host of ['localhost', 'localhost:3000', 'app.localhost:3000', '127.0.0.1:3000', '[::1]:3000', '10.0.0.5', '192.168.1.20:8080', '[fd00::1]:3000', '0x7f.1:3000']) {
      expect(isAllowedHost(host, none), host).toBe(true)
    }
  })

  it('refuses any other DNS name, and a missing or unparsable Host', () => {
    for (const host of ['evil.example', 'evil.example:3000', 'localhost.evil.example', '127.0.0.1.nip.io', 'mcp.example.com', '', 'a b']) {
      expect(isAllowedHost(host, none), host).toBe(false)
    }
  })

  it('passes the public URL\'s host and the allowed hosts; * passes everything', () => {
    const policy: OriginPolicy = { allowedHosts: ['api.example.com', 'other.example:8443'], allowedOrigins: [], publicHost: publicHostOf('https://mcp.example.com/') }
    expect(isAllowedHost('mcp.example.com', policy)).toBe(true)
    expect(isAllowedHost('mcp.example.com:443', policy)).toBe(true)
    expect(isAllowedHost('api.example.com:3000', policy)).toBe(true)
    expect(isAllowedHost('other.example:8443', policy)).toBe(true)
    expect(isAllowedHost('other.example:9000', policy)).toBe(false)
    expect(isAllowedHost('evil.example', policy)).toBe(false)
    expect(isAllowedHost('evil.example', { ...none, allowedHosts: ['*'] })).toBe(true)
  })

  it('refuses a public URL that is not an http(s) URL, naming the variable', () => {
    expect(publicHostOf('')).toBeUndefined()
    expect(() => publicHostOf('mcp.example.com')).toThrow(/NUXT_MCP_PUBLIC_URL.*not a URL.*https:\/\/mcp\.example\.com/)
    expect(() => publicHostOf('ftp://mcp.example.com')).toThrow(/NUXT_MCP_PUBLIC_URL.*http\(s\)/)
  })
})
