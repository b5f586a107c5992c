import { describe, expect, it } from 'vitest'
import type { McpServerConfig } from '../../../../src/runtime/server/common/config'
import { resolveOAuthSettings } from '../../../../src/runtime/server/transport/oauth/settings'

// The resource identifier (RFC 8707) is where clients reach the endpoint: two apps on one origin,
// behind one authorization server, must never get interchangeable tokens, so neither the public
// URL's path (a proxy's prefix) nor Nuxt's app.baseURL may be dropped from it.
function config(publicUrl: string, resource = ''): Pick<McpServerConfig, 'auth' | 'publicUrl'> {
  return {
    publicUrl,
    auth: { issuers: ['https://auth.example.com/'], resource, audiences: [], scopes: [], clockToleranceSeconds: 60, jwksMaxAgeSeconds: 3600, introspection: { clientId: '', clientSecret: '', endpoint: '', issuer: '' } },
  }
}

describe('the OAuth resource identifier', () => {
  it('is the public URL plus the route, its metadata at RFC 9728\'s well-known URL (the common case, unchanged)', () => {
    const settings = resolveOAuthSettings(config('https://host.example'), '/mcp')
    expect(settings?.resource).toBe('https://host.example/mcp')
    expect(settings?.metadataUrl).toBe('https://host.example/.well-known/oauth-protected-resource/mcp')
  })

  it('keeps the public URL\'s path: two apps behind one proxy get resources of their own', () => {
    const first = resolveOAuthSettings(config('https://host.example/app1/'), '/mcp')
    const second = resolveOAuthSettings(config('https://host.example/app2'), '/mcp')
    expect(first?.resource).toBe('https://host.example/app1/mcp')
    expect(second?.resource).toBe('https://host.example/app2/mcp')
    expect(first?.audiences).toEqual(['https://host.example/app1/mcp'])
    expect(first?.metadataUrl).toBe('https://host.example/app1/.well-known/oauth-protected-resource/mcp')
  })

  it('puts Nuxt\'s app.baseURL before the route, where Nitro serves the endpoint and its metadata', () => {
    const settings = resolveOAuthSettings(config('https://host.example'), '/mcp/admin', '/shop/')
    expect(settings?.resource).toBe('https://host.example/shop/mcp/admin')
    expect(settings?.metadataUrl).toBe('https://host.example/shop/.well-known/oauth-protected-resource/mcp/admin')
  })

  it('takes a resource set by hand as it is', () => {
    const settings = resolveOAuthSettings(config('https://host.example/app1', 'https://api.example.com/tools'), '/mcp', '/shop/')
    expect(settings?.resource).toBe('https://api.example.com/tools')
    expect(settings?.metadataUrl).toBe('https://api.example.com/.well-known/oauth-protected-resource/tools')
  })
})
