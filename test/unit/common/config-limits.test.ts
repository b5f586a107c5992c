import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { MockInstance } from 'vitest'
import { CACHE_BYTE_DEFAULTS, configOfEndpoint, DEFAULT_RESUMABLE_BYTES, envVariableOf, nonNegativeNumberOf, TASK_LIMIT_DEFAULTS } from '../../../src/runtime/server/common/config'
import { serverConfigForTests } from '../../utils/server-config'
import type { McpServerConfig } from '../../../src/runtime/server/common/config'

// A numeric bound set through a NUXT_MCP_* env variable can be a word: compared with, it would be
// NaN and lift the bound; in a Redis script `tonumber` would give nil and fail it (issue 48).

const app: McpServerConfig = serverConfigForTests({
  version: '2.0.0',
  cache: { storage: '', maxEntryBytes: 1000, maxBytes: 2000, maxBytesPerCaller: 500 },
  sessions: { idleTimeoutMs: 1000, max: 10, maxPerPrincipal: 5, maxResumableBytes: 4096 },
  tasks: { ttlMs: 60_000, maxTtlMs: 60_000, maxAnonymousTtlMs: 30_000, minTtlMs: 1000, pollIntervalMs: 1000, maxPerPrincipal: 10, max: 100, maxResultBytes: 1024, maxArgumentBytes: 1024, maxCapabilitiesBytes: 512, maxAnswerBytes: 256, detachAfterMs: 30_000, background: true },
})

/** What NUXT_MCP_* env variables set to words make of the runtime config (Nuxt keeps a word a string). */
function withWords(config: McpServerConfig, words: Record<string, Record<string, string>>): McpServerConfig {
  return {
    ...config,
    sessions: { ...config.sessions, ...words.sessions },
    tasks: { ...config.tasks, ...words.tasks },
    cache: { ...config.cache, ...words.cache },
  } as McpServerConfig
}

let warn: MockInstance<typeof console.warn>
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  warn.mockRestore()
})

describe('nonNegativeNumberOf', () => {
  it('is the value when it is a number of at least 0', () => {
    expect(nonNegativeNumberOf(16 * 1024 * 1024, 'sessions.maxResumableBytes', DEFAULT_RESUMABLE_BYTES)).toBe(16 * 1024 * 1024)
    expect(nonNegativeNumberOf(0, 'sessions.maxResumableBytes', DEFAULT_RESUMABLE_BYTES)).toBe(0)
    expect(warn).not.toHaveBeenCalled()
  })

  it('is the default otherwise, said once per value in the log with the option, its env variable and the value', () => {
    for (const bad of ['lots', -1, Number.NaN, Number.POSITIVE_INFINITY, undefined, null]) {
      expect(nonNegativeNumberOf(bad, 'tasks.maxAnswerBytes', 7)).toBe(7)
    }
    expect(nonNegativeNumberOf('lots', 'tasks.maxAnswerBytes', 7)).toBe(7)
    expect(warn).toHaveBeenCalledTimes(6)
    expect(String(warn.mock.calls[0]?.[0])).toBe('[nuxt-mcp-elicitation] mcp.tasks.maxAnswerBytes is "lots", not a number of at least 0: using the default, 7. Set it (or NUXT_MCP_TASKS_MAX_ANSWER_BYTES) to a number, e.g. 7.')
  })

  it('names the env variable Nuxt reads for the option', () => {
    expect(envVariableOf('cache.maxBytesPerCaller')).toBe('NUXT_MCP_CACHE_MAX_BYTES_PER_CALLER')
    expect(envVariableOf('sessions.maxResumableBytes')).toBe('NUXT_MCP_SESSIONS_MAX_RESUMABLE_BYTES')
    expect(envVariableOf('tasks.max')).toBe('NUXT_MCP_TASKS_MAX')
  })
})

describe('an endpoint\'s bounds', () => {
  it('keeps the numbers set', () => {
    const config = configOfEndpoint(app, '')
    expect(config.cache).toEqual(app.cache)
    expect(config.tasks).toEqual(app.tasks)
    expect(config.sessions).toEqual(app.sessions)
    expect(warn).not.toHaveBeenCalled()
  })

  it('replaces each bound that is a word by its default, on every endpoint, saying each once', () => {
    const words = withWords(app, {
      cache: { maxEntryBytes: 'big', maxBytes: 'big', maxBytesPerCaller: 'big' },
      tasks: { max: 'many', maxArgumentBytes: 'many', maxCapabilitiesBytes: 'many', maxAnswerBytes: 'many', maxAnonymousTtlMs: 'long', minTtlMs: 'short' },
      sessions: { maxResumableBytes: 'lots' },
    })
    const withAdmin = { ...words, endpoints: { admin: { route: '/mcp/admin', name: 'admin', version: '1', instructions: '', listChanged: false, tools: '*', auth: {} } } }
    for (const config of [configOfEndpoint(withAdmin, ''), configOfEndpoint(withAdmin, 'admin')]) {
      expect(config.cache).toEqual({ storage: '', ...CACHE_BYTE_DEFAULTS })
      expect(config.tasks).toEqual({ ...app.tasks, ...TASK_LIMIT_DEFAULTS })
      expect(config.sessions.maxResumableBytes).toBe(DEFAULT_RESUMABLE_BYTES)
    }
    const said = warn.mock.calls.map(call => String(call[0]))
    expect(said).toHaveLength(10)
    for (const [option, variable] of [
      ['cache.maxEntryBytes', 'NUXT_MCP_CACHE_MAX_ENTRY_BYTES'], ['cache.maxBytes', 'NUXT_MCP_CACHE_MAX_BYTES'], ['cache.maxBytesPerCaller', 'NUXT_MCP_CACHE_MAX_BYTES_PER_CALLER'],
      ['tasks.max', 'NUXT_MCP_TASKS_MAX'], ['tasks.maxArgumentBytes', 'NUXT_MCP_TASKS_MAX_ARGUMENT_BYTES'], ['tasks.maxCapabilitiesBytes', 'NUXT_MCP_TASKS_MAX_CAPABILITIES_BYTES'],
      ['tasks.maxAnswerBytes', 'NUXT_MCP_TASKS_MAX_ANSWER_BYTES'], ['tasks.maxAnonymousTtlMs', 'NUXT_MCP_TASKS_MAX_ANONYMOUS_TTL_MS'], ['tasks.minTtlMs', 'NUXT_MCP_TASKS_MIN_TTL_MS'], ['sessions.maxResumableBytes', 'NUXT_MCP_SESSIONS_MAX_RESUMABLE_BYTES'],
    ]) {
      expect(said.filter(line => line.includes(`mcp.${option} is "`) && line.includes(`(or ${variable})`))).toHaveLength(1)
    }
  })
})
