import { describe, expect, it } from 'vitest'
import { usableEndpoint } from '../../../../src/runtime/server/transport/oauth/issuer-metadata'

// The keys that decide who is let in, and the introspection endpoint our client secret goes to,
// are used over https only, on loopback, or on the issuer's own origin (an http issuer someone
// chose, e.g. on a container network): never in cleartext to another host.
describe('an issuer\'s key set and introspection endpoint', () => {
  it('are used over https, on loopback, or on an http issuer\'s own origin', () => {
    expect(usableEndpoint('https://auth.example.com/jwks', 'https://auth.example.com', 'jwks_uri')).toBe('https://auth.example.com/jwks')
    expect(usableEndpoint('https://keys.example.net/jwks', 'https://auth.example.com', 'jwks_uri')).toBe('https://keys.example.net/jwks')
    expect(usableEndpoint('http://127.0.0.1:4000/jwks', 'http://127.0.0.1:4000', 'jwks_uri')).toBe('http://127.0.0.1:4000/jwks')
    expect(usableEndpoint('http://localhost:8080/introspect', 'https://auth.example.com', 'introspection endpoint')).toBe('http://localhost:8080/introspect')
    expect(usableEndpoint('http://[::1]:8080/jwks', 'http://[::1]:8080', 'jwks_uri')).toBe('http://[::1]:8080/jwks')
    expect(usableEndpoint('http://keycloak:8080/realms/x/certs', 'http://keycloak:8080/realms/x', 'jwks_uri')).toBe('http://keycloak:8080/realms/x/certs')
  })

  it('are refused over plain http to another host, saying which and why', () => {
    expect(() => usableEndpoint('http://keys.example.net/jwks', 'https://auth.example.com', 'jwks_uri')).toThrow(/its jwks_uri is not served over https/)
    expect(() => usableEndpoint('http://auth.example.com/introspect', 'https://auth.example.com', 'introspection endpoint')).toThrow(/introspection endpoint is not served over https/)
    expect(() => usableEndpoint('http://other:8080/certs', 'http://keycloak:8080/realms/x', 'jwks_uri')).toThrow(/not served over https/)
    expect(() => usableEndpoint('ftp://auth.example.com/jwks', 'https://auth.example.com', 'jwks_uri')).toThrow(/not served over https/)
    expect(() => usableEndpoint('not a url', 'https://auth.example.com', 'jwks_uri')).toThrow(/not a URL/)
  })
})
