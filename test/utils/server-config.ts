import { CACHE_BYTE_DEFAULTS } from '../../src/runtime/server/common/config'
import type { McpServerConfig } from '../../src/runtime/server/common/config'

/**
 * A whole server config with small limits, for unit tests that build parts of the server by
 * hand: one place to add a new option's value, with `overrides` laid over it.
 *
 * @example
 * ```ts
 * const config = serverConfigForTests({ publicUrl: 'https://shop.example.com' })
 * ```
 */
export function serverConfigForTests(overrides: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    name: 'shop', version: '1.0.0', instructions: '', listChanged: false, tools: '*', legacy: true, observe: { answers: false },
    cache: { storage: '', ...CACHE_BYTE_DEFAULTS },
    publicUrl: '', allowedHosts: [], allowedOrigins: [], maxBodySize: 1024, trustedProxies: [],
    sessions: { idleTimeoutMs: 1000, max: 10, maxPerPrincipal: 5, maxResumableBytes: 64 * 1024 * 1024 },
    elicitation: { timeoutMs: 1000, stateTtlSeconds: 60, maxAttempts: 3, progressIntervalMs: 1000, allowInsecureUrls: false, page: { enabled: true, maxOpenPerCaller: 5, consentWithLinkOnly: false, afterFastDecline: false } },
    tasks: { ttlMs: 60_000, maxTtlMs: 60_000, maxAnonymousTtlMs: 60_000, minTtlMs: 0, pollIntervalMs: 1000, maxPerPrincipal: 10, max: 100, maxResultBytes: 1024, maxArgumentBytes: 1024, maxCapabilitiesBytes: 1024, maxAnswerBytes: 1024, detachAfterMs: 30_000, background: true },
    auth: { issuers: [], resource: '', audiences: [], scopes: [], clockToleranceSeconds: 60, jwksMaxAgeSeconds: 3600, introspection: { clientId: '', clientSecret: '', endpoint: '', issuer: '' } },
    stateSecret: '', redisUrl: '', redisPrefix: 'nuxt-mcp:',
    ...overrides,
  }
}
