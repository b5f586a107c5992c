import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as sfc from 'vue/compiler-sfc'
import { describe, expect, it } from 'vitest'
import { readViewDefinition } from '../../../src/build/views/view-definition'
import { checkToolViews, scanViews } from '../../../src/build/views/scan-views'
import { addViewAutoImports } from '../../../src/build/views/build-view'
import { browserSourceOf } from '../../../src/build/views/view-tool'
import { viewToolMeta, decodeViews, formViewResolver, rendersAppElicitation } from '../../../src/runtime/server/mcp/views/apps'
import { McpElicitationError } from '../../../src/runtime/server/elicitation/error'

const read = (script: string) => readViewDefinition(sfc, `<script setup lang="ts">\n${script}\n</script>\n<template><p /></template>`, 'app/mcp/chart.vue', '/app/app/mcp/chart.vue')

describe('defineMcpView({ … }), read at build time', () => {
  it('reads title, description and the _meta.ui keys as plain data', () => {
    expect(read(`defineMcpView({ title: 'Chart', description: \`The week\`, prefersBorder: true, domain: 'x.example', csp: { connectDomains: ['https://a.example'] } as const, permissions: { camera: {} } })`)).toEqual({
      title: 'Chart',
      description: 'The week',
      ui: { prefersBorder: true, domain: 'x.example', csp: { connectDomains: ['https://a.example'] }, permissions: { camera: {} } },
    })
  })

  it('is a view without metadata when the view does not call it', () => {
    expect(read('const x = 1')).toEqual({ ui: {} })
  })

  it('refuses @nuxtjs/mcp-toolkit\'s in-view names, naming the file and the new name', () => {
    expect(() => read('defineMcpApp({ title: "Chart" })')).toThrow('app/mcp/chart.vue calls defineMcpApp(), @nuxtjs/mcp-toolkit\'s name: here it is defineMcpView(). Rename the call')
    expect(() => read('const { data } = useMcpApp()')).toThrow('app/mcp/chart.vue calls useMcpApp(), @nuxtjs/mcp-toolkit\'s name: here it is useMcpView(). Rename the call')
    expect(read('const useMcpAppish = 1')).toEqual({ ui: {} })
  })

  it('refuses what is not plain data, naming the file and the key', () => {
    expect(() => read('const domains = ["https://a.example"]\ndefineMcpView({ csp: { connectDomains: domains } })')).toThrow(/app\/mcp\/chart\.vue: defineMcpView\(\{ csp\.connectDomains: … \}\) is not plain data \(Identifier\)/)
    expect(() => read('defineMcpView({ ...base })')).toThrow(/spread, method or computed key/)
  })

  it('refuses a key it does not know, and tool keys without a handler', () => {
    expect(() => read('defineMcpView({ colour: "red" })')).toThrow(/defineMcpView\(\{ colour \}\) is not a key it knows/)
    expect(() => read('defineMcpView({ inputSchema: { city: z.string() } })')).toThrow(/defineMcpView\(\{ inputSchema \}\) declares a tool, but there is no `handler`/)
  })

  it('takes a tool the view declares (@nuxtjs/mcp-toolkit\'s way) as source, with the imports it uses made absolute', () => {
    const definition = read(`import { z } from 'zod'\nimport { forecast } from '../../server/utils/forecast'\nimport { ref } from 'vue'\ndefineMcpView({ description: 'Weather', prefersBorder: true, inputSchema: { city: z.string() }, async handler({ city }) { return forecast(city) } })\nconst x = ref(1)`)
    expect(definition).toMatchObject({ description: 'Weather', ui: { prefersBorder: true } })
    expect(definition.tool?.source).toBe(`{\n  description: 'Weather',\n  inputSchema: { city: z.string() },\n  async handler({ city }) { return forecast(city) },\n}`)
    expect(definition.tool?.imports).toEqual([`import { z } from 'zod'`, `import { forecast } from '/app/server/utils/forecast'`])
  })

  it('checks _meta.ui with ext-apps\' own schema', () => {
    expect(() => read('defineMcpView({ prefersBorder: "yes" })')).toThrow(/defineMcpView\(\{ prefersBorder \}\) is not what MCP Apps allow/)
    expect(() => read('defineMcpView({ title: 3 })')).toThrow(/defineMcpView\(\{ title \}\) must be a string/)
  })
})

describe('finding views and the tools that name them', () => {
  function layer(files: Record<string, string>) {
    const rootDir = mkdtempSync(join(tmpdir(), 'mcp-views-'))
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(rootDir, path, '..'), { recursive: true })
      writeFileSync(join(rootDir, path), text)
    }
    return { rootDir, srcDir: join(rootDir, 'app') }
  }

  it('takes app/mcp/*.vue (not subfolders), the app winning over a layer', async () => {
    const app = layer({ 'app/mcp/chart.vue': '<template>app</template>', 'app/mcp/parts/Axis.vue': '<template />' })
    const base = layer({ 'app/mcp/chart.vue': '<template>layer</template>', 'app/mcp/map.vue': '<template />' })
    const views = await scanViews([app, base])
    expect(views.map(view => [view.name, view.path.startsWith(view.name === 'map' ? base.rootDir : app.rootDir)])).toEqual([['chart', true], ['map', true]])
    expect(views[0]?.file).toBe('app/mcp/chart.vue')
  })

  it('refuses a file name that cannot be one segment of a ui:// URI', async () => {
    await expect(scanViews([layer({ 'app/mcp/my chart.vue': '<template />' })])).rejects.toThrow(/"my chart" cannot name an MCP App/)
  })

  it('names every tool whose view is missing, and the views there are', () => {
    const views = [{ name: 'table', path: '/a/app/mcp/table.vue', file: 'app/mcp/table.vue' }]
    expect(() => checkToolViews([{ kind: 'tools', name: 'a', file: 'server/mcp/tools/a.ts', view: 'table' }], views)).not.toThrow()
    expect(() => checkToolViews([{ kind: 'tools', name: 'b', file: 'server/mcp/tools/b.ts', view: 'chart' }], views)).toThrow('the tool "b" (server/mcp/tools/b.ts) names "chart". Views are app/mcp/<name>.vue (here: "table")')
    // The runtime registry says the same for a `view` the build could not read (computed).
    expect(() => viewToolMeta({ name: 'chart' }, [], 'The tool "b" (server/mcp/tools/b.ts)')).toThrow(/The tool "b" \(server\/mcp\/tools\/b\.ts\) shows the view "chart", but there is no app\/mcp\/chart\.vue \(views: none\)/)
  })
})

describe('a view\'s source and its HTML', () => {
  it('auto-imports useMcpView and defineMcpView only where used and not imported', () => {
    const used = addViewAutoImports('<script setup lang="ts">\nconst { data } = useMcpView()\n</script>', '/rt/apps/index')
    expect(used).toBe('<script setup lang="ts">\nimport { useMcpView } from "/rt/apps/index"\n\nconst { data } = useMcpView()\n</script>')
    const imported = '<script setup>\nimport { useMcpView } from "x"\nuseMcpView()\n</script>'
    expect(addViewAutoImports(imported, '/rt')).toBe(imported)
    expect(addViewAutoImports('<template><p /></template>', '/rt')).toBe('<template><p /></template>')
  })

  it('takes a tool the view declares out of its browser source, and the imports only the tool uses', () => {
    const source = `<script setup lang="ts">\nimport { z } from 'zod'\nimport { forecast } from '../../server/utils/forecast'\nimport { format } from './format'\ndefineMcpView({ prefersBorder: true, inputSchema: { city: z.string() }, handler: ({ city }) => forecast(format(city)) })\nconst { data } = useMcpView()\n</script>\n<template><p>{{ format(data?.city) }}</p></template>`
    const browser = browserSourceOf(sfc, source, 'app/mcp/w.vue', '/app/app/mcp/w.vue')
    expect(browser).toBe(`<script setup lang="ts">\n\n\nimport { format } from './format'\ndefineMcpView({})\nconst { data } = useMcpView()\n</script>\n<template><p>{{ format(data?.city) }}</p></template>`)
    // A view with metadata only is left as written.
    const metadataOnly = '<script setup>\ndefineMcpView({ prefersBorder: true })\n</script>'
    expect(browserSourceOf(sfc, metadataOnly, 'app/mcp/m.vue', '/app/app/mcp/m.vue')).toBe(metadataOnly)
  })

  it('decodes the base64 the build wrote, UTF-8 included', () => {
    const html = '<!doctype html><p>Grüße, 世界 — typeof window</p>'
    const [view] = decodeViews([{ name: 'v', file: 'app/mcp/v.vue', ui: {}, html: Buffer.from(html).toString('base64') }])
    expect(view?.html).toBe(html)
  })
})

describe('app-rendered elicitation: who gets the view', () => {
  const UI = 'io.modelcontextprotocol/ui'
  const MIME = 'text/html;profile=mcp-app'

  it('needs form elicitation, the extension with elicitation, and the MCP App mime type', () => {
    expect(rendersAppElicitation({ elicitation: { form: {} }, extensions: { [UI]: { mimeTypes: [MIME], elicitation: {} } } })).toBe(true)
    expect(rendersAppElicitation({ elicitation: { url: {} }, extensions: { [UI]: { mimeTypes: [MIME], elicitation: {} } } })).toBe(false)
    expect(rendersAppElicitation({ elicitation: { form: {} }, extensions: { [UI]: { mimeTypes: [MIME] } } })).toBe(false)
    expect(rendersAppElicitation({ elicitation: { form: {} }, extensions: { [UI]: { mimeTypes: ['text/html'], elicitation: {} } } })).toBe(false)
    expect(rendersAppElicitation({ elicitation: { form: {} } })).toBe(false)
    expect(rendersAppElicitation(undefined)).toBe(false)
  })

  it('resolves a view to its URI for such a client, to the plain form for others, and refuses a missing view for both', () => {
    const views = new Set(['date-range'])
    const renders = formViewResolver(views, { elicitation: { form: {} }, extensions: { [UI]: { mimeTypes: [MIME], elicitation: {} } } })
    const plain = formViewResolver(views, { elicitation: { form: {} } })
    expect(renders('date-range')).toBe('ui://date-range')
    expect(plain('date-range')).toBeUndefined()
    for (const resolve of [renders, plain]) {
      let caught: unknown
      try {
        resolve('nope')
      }
      catch (error) {
        caught = error
      }
      expect(caught).toBeInstanceOf(McpElicitationError)
      expect((caught as McpElicitationError).code).toBe('unknown-view')
      expect((caught as McpElicitationError).message).toContain('(views: "date-range")')
    }
  })
})
