import { describe, expect, it } from 'vitest'
import { createBearerCheck } from '../../../../src/runtime/server/transport/oauth/bearer'
import type { OAuthSettings } from '../../../../src/runtime/server/transport/oauth/settings'

// Opaque tokens the app vouches for (mcp:auth:token) get no network check, so this runs the
// endpoint's own rule alone: where an endpoint sets its own audiences, a vouched-for token must
// name one of them (else a key made for one endpoint opens any other whose scopes it carries).
function settings(audiences: string[] | undefined): OAuthSettings {
  const resource = 'https://mcp.example.com/mcp/admin'
  return {
    issuers: ['https://auth.example.com/'],
    resource,
    audiences: audiences ?? [resource],
    audiencesSet: audiences !== undefined,
    scopes: ['mcp:admin'],
    clockToleranceSeconds: 60,
    jwksMaxAgeMs: 3_600_000,
    metadataUrl: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp/admin',
  }
}

const exp = () => Math.floor(Date.now() / 1000) + 60

/** The refusal a check answered with (fails the test when it let the token in). */
function refusal(outcome: unknown): Response {
  if (!(outcome instanceof Response)) throw new Error(`expected a refusal, got ${JSON.stringify(outcome)}`)
  return outcome
}

describe('a token the app vouches for', () => {
  it('needs one of the endpoint\'s own audiences when the endpoint sets them', async () => {
    const check = createBearerCheck(settings(['admin-keys']))
    const withoutAudience = refusal(await check('Bearer key-1', async () => ({ sub: 'bob', scope: 'mcp:admin', exp: exp() })))
    expect(withoutAudience.status).toBe(401)
    expect(await withoutAudience.text()).toMatch(/names no audience/)
    const withIt = await check('Bearer key-1', async () => ({ sub: 'bob', scope: 'mcp:admin', exp: exp(), aud: 'admin-keys' }))
    expect(withIt).toMatchObject({ principal: 'bob' })
    const withAnother = refusal(await check('Bearer key-1', async () => ({ sub: 'bob', scope: 'mcp:admin', exp: exp(), aud: 'tools-keys' })))
    expect(withAnother.status).toBe(401)
  })

  it('needs none where the endpoint keeps the default audience (one endpoint apps work as before)', async () => {
    const check = createBearerCheck(settings(undefined))
    expect(await check('Bearer key-1', async () => ({ sub: 'bob', scope: 'mcp:admin', exp: exp() }))).toMatchObject({ principal: 'bob' })
  })
})
