/**
 * What a file of a Nuxt app sees, for the docs samples compiled by test/unit/docs/samples.test.ts.
 *
 * Mirrors the `.nuxt/types/nitro-imports.d.ts` Nuxt generates: auto-imports are globals typed from
 * their real packages. Nothing here is `any`: a sample that uses a name not declared below fails.
 */
import type { ModuleOptions } from '../../src/module'
// Brings the `mcp:host-owner` hook's type augmentation into the program.
import type {} from '../../src/runtime/host/owner'

declare global {
  // The module's server auto-imports (src/module.ts, addServerImports).
  const defineMcpTool: typeof import('../../src/runtime/server/index').defineMcpTool
  const defineMcpResource: typeof import('../../src/runtime/server/index').defineMcpResource
  const defineMcpPrompt: typeof import('../../src/runtime/server/index').defineMcpPrompt
  const useMcpElicitation: typeof import('../../src/runtime/server/index').useMcpElicitation
  const McpElicitationError: typeof import('../../src/runtime/server/index').McpElicitationError
  const completeMcpUrlElicitation: typeof import('../../src/runtime/server/index').completeMcpUrlElicitation
  const notifyMcpResourceUpdated: typeof import('../../src/runtime/server/index').notifyMcpResourceUpdated
  const notifyMcpListChanged: typeof import('../../src/runtime/server/index').notifyMcpListChanged
  const useMcpSession: typeof import('../../src/runtime/server/index').useMcpSession
  const useMcpLogger: typeof import('../../src/runtime/server/index').useMcpLogger
  const useMcpTask: typeof import('../../src/runtime/server/index').useMcpTask

  // The host side's server auto-imports (src/module.ts, the `mcp.host` block).
  const useMcpHostElicitation: typeof import('../../src/runtime/host/index').useMcpHostElicitation
  const createMemoryElicitationRegistry: typeof import('../../src/runtime/host/index').createMemoryElicitationRegistry
  const setMcpElicitationRegistry: typeof import('../../src/runtime/host/index').setMcpElicitationRegistry
  const useMcpElicitationRegistry: typeof import('../../src/runtime/host/index').useMcpElicitationRegistry
  const createMcpHostClient: typeof import('../../src/runtime/host/client').createMcpHostClient

  // Nitro's auto-imports that the samples use (h3 utilities, nitropack runtime).
  const defineEventHandler: typeof import('h3').defineEventHandler
  const createError: typeof import('h3').createError
  const getQuery: typeof import('h3').getQuery
  const getHeader: typeof import('h3').getHeader
  const getRequestHeader: typeof import('h3').getRequestHeader
  const getRequestURL: typeof import('h3').getRequestURL
  const readBody: typeof import('h3').readBody
  const defineNitroPlugin: typeof import('nitropack/runtime').defineNitroPlugin
  const useRuntimeConfig: typeof import('nitropack/runtime').useRuntimeConfig

  // nuxt.config.ts
  const defineNuxtConfig: typeof import('nuxt/config').defineNuxtConfig

  // App helpers the docs assume (functions of the reader's app in `server/utils/`; each sample
  // that uses one says so). Keep this list short: the test fails when one is no longer used.
  function deleteProject(project: string): Promise<void>
  function setFlag(name: string, on: boolean): Promise<void>
  function saveDraft(key: string, draft: { customer: string, eur: number }): Promise<void>
  function createTicket(title: string): Promise<string>
  function setPriority(ticketId: string, priority: 'low' | 'high'): Promise<void>
  function getUserSession(event: import('h3').H3Event): Promise<{ user?: { id: string } }>
}

// What Nuxt generates in .nuxt/types/modules.d.ts for a module with `configKey: 'mcp'`.
declare module '@nuxt/schema' {
  interface NuxtConfig {
    mcp?: Partial<ModuleOptions>
  }
}
