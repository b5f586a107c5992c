import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { babelParse } from 'vue/compiler-sfc'
import { endpointConfig, findEndpointFolders, planEndpoints } from '../../../src/build/endpoints'
import { CACHE_BYTE_DEFAULTS, configOfEndpoint } from '../../../src/runtime/server/common/config'
import { serverConfigForTests } from '../../utils/server-config'
import type { McpServerConfig } from '../../../src/runtime/server/common/config'
import { renderDefinitionsModule, scanDefinitions } from '../../../src/build/definitions/scan'

// Several endpoints at build time: which folders are endpoints, their routes, their settings.
let root: string

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcp-endpoints-'))
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

async function write(path: string, text = 'export default defineMcpTool({ description: \'d\', handler: () => \'x\' })'): Promise<void> {
  await mkdir(join(root, path, '..'), { recursive: true })
  await writeFile(join(root, path), text)
}

describe('findEndpointFolders', () => {
  it('takes the folders of server/mcp that hold tools, resources or prompts, in any layer', async () => {
    await write('app/server/mcp/tools/echo.ts')
    await write('app/server/mcp/admin/tools/rotate.ts')
    await write('app/server/mcp/utils/helpers.ts')
    await write('base/server/mcp/billing/prompts/invoice.ts')
    expect(await findEndpointFolders([join(root, 'app/server'), join(root, 'base/server'), join(root, 'missing/server')])).toEqual(['admin', 'billing'])
  })
})

describe('planEndpoints', () => {
  it('serves each folder at <route>/<key>, or at the route its options give', () => {
    expect(planEndpoints('/mcp', ['admin'], { billing: { route: '/billing-mcp' } })).toEqual([
      { key: '', route: '/mcp' },
      { key: 'admin', route: '/mcp/admin' },
      { key: 'billing', route: '/billing-mcp' },
    ])
  })

  it('refuses a key that cannot be a URL segment, naming it and the fix', () => {
    expect(() => planEndpoints('/mcp', ['Admin Tools'], {})).toThrow(/"Admin Tools".*lower-case letters, digits and dashes/)
  })

  it('refuses two endpoints on one route, naming both', () => {
    expect(() => planEndpoints('/mcp', ['admin'], { other: { route: '/mcp/admin' } })).toThrow(/Two endpoints are served at \/mcp\/admin: "admin" and "other".*mcp\.endpoints\.other\.route/)
    expect(() => planEndpoints('/mcp', [], { main: { route: '/mcp' } })).toThrow(/"default" and "main"/)
  })
})

const app: McpServerConfig = serverConfigForTests({
  version: '2.0.0', instructions: 'Shop tools.', publicUrl: 'https://shop.example.com',
  tasks: { ttlMs: 60_000, maxTtlMs: 60_000, maxAnonymousTtlMs: 60_000, minTtlMs: 0, pollIntervalMs: 1000, maxPerPrincipal: 10, max: 100, maxResultBytes: 1024, maxArgumentBytes: 1024, maxCapabilitiesBytes: 1024, maxAnswerBytes: 1024, detachAfterMs: 30_000, background: true },
  auth: { issuers: ['https://auth.example.com'], resource: 'https://shop.example.com/mcp', audiences: ['shop'], scopes: ['mcp'], clockToleranceSeconds: 60, jwksMaxAgeSeconds: 3600, introspection: { clientId: '', clientSecret: '', endpoint: '', issuer: '' } },
})

describe('an endpoint\'s settings', () => {
  it('has its own name and instructions, the app\'s version, and its auth laid over the app\'s', () => {
    const own = endpointConfig({ key: 'admin', route: '/mcp/admin' }, { auth: { scopes: ['admin'] } }, app)
    expect(own).toEqual({ route: '/mcp/admin', name: 'shop-admin', version: '2.0.0', instructions: '', listChanged: false, tools: '*', auth: { scopes: ['admin'] } })
    const config = configOfEndpoint({ ...app, endpoints: { admin: own } }, 'admin')
    expect(config.name).toBe('shop-admin')
    expect(config.instructions).toBe('')
    // The issuers are the app's; the resource and audiences are never inherited (a token for /mcp must not open /mcp/admin).
    expect(config.auth).toMatchObject({ issuers: ['https://auth.example.com'], scopes: ['admin'], resource: '', audiences: [] })
  })

  it('leaves the default endpoint with the app\'s settings', () => {
    expect(configOfEndpoint(app, '')).toEqual(app)
  })
})

describe('renderDefinitionsModule', () => {
  it('groups each endpoint\'s files under its key', async () => {
    await write('app/server/mcp/tools/echo.ts')
    await write('app/server/mcp/admin/tools/rotate.ts')
    const layers = [{ serverDir: join(root, 'app/server'), rootDir: join(root, 'app') }]
    const source = renderDefinitionsModule(new Map([['', await scanDefinitions(babelParse, layers)], ['admin', await scanDefinitions(babelParse, layers, 'admin')]]))
    expect(source).toMatch(/"": \{\n {4}tools: \[\n {6}\{ file: "server\/mcp\/tools\/echo\.ts"/)
    expect(source).toMatch(/"admin": \{\n {4}tools: \[\n {6}\{ file: "server\/mcp\/admin\/tools\/rotate\.ts"/)
  })
})
