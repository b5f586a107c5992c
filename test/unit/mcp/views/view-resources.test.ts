// A view's resource `_meta`, for every host from one declaration: MCP Apps' `_meta.ui` as the
// view declared it, and the keys ChatGPT reads for the same domains (`openai/widgetCSP`,
// snake_case; `openai/widgetDomain`), on the listed resource and on the content it reads.
import { McpUiResourceMetaSchema } from '@modelcontextprotocol/ext-apps'
import { describe, expect, it } from 'vitest'
import { viewResourceMeta, viewResources, type McpView } from '../../../../src/runtime/server/mcp/views/apps'

function view(ui: McpView['ui']): McpView {
  return { name: 'chart', file: 'app/mcp/chart.vue', ui, html: '<!doctype html><p>chart</p>' }
}

describe('a view\'s resource _meta, for MCP Apps hosts and ChatGPT', () => {
  it('writes the declared domains under ui.csp and, snake_case, under openai/widgetCSP', () => {
    const ui = { csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com', 'https://*.fonts.example.com'] }, prefersBorder: true }
    const meta = viewResourceMeta(ui)
    expect(meta).toEqual({
      'ui': ui,
      'openai/widgetCSP': { connect_domains: ['https://api.example.com'], resource_domains: ['https://cdn.example.com', 'https://*.fonts.example.com'] },
    })
    // What MCP Apps hosts parse is untouched by the ChatGPT keys beside it.
    expect(McpUiResourceMetaSchema.strict().parse(meta?.ui)).toEqual(ui)
  })

  it('carries frameDomains as frame_domains, and keeps baseUriDomains (no ChatGPT key) in ui.csp only', () => {
    const meta = viewResourceMeta({ csp: { frameDomains: ['https://www.youtube.com'], baseUriDomains: ['https://example.com'] } })
    expect(meta?.['openai/widgetCSP']).toEqual({ connect_domains: [], resource_domains: [], frame_domains: ['https://www.youtube.com'] })
    expect(meta?.ui).toEqual({ csp: { frameDomains: ['https://www.youtube.com'], baseUriDomains: ['https://example.com'] } })
  })

  it('states "nothing external" to both hosts for csp: {}', () => {
    expect(viewResourceMeta({ csp: {} })).toEqual({ 'ui': { csp: {} }, 'openai/widgetCSP': { connect_domains: [], resource_domains: [] } })
  })

  it('mirrors ui.domain as openai/widgetDomain, and writes no ChatGPT CSP without a declared csp', () => {
    expect(viewResourceMeta({ domain: 'www-example-com.oaiusercontent.com', prefersBorder: false })).toEqual({
      'ui': { domain: 'www-example-com.oaiusercontent.com', prefersBorder: false },
      'openai/widgetDomain': 'www-example-com.oaiusercontent.com',
    })
  })

  it('gives a view that declares nothing no _meta at all', () => {
    expect(viewResourceMeta({})).toBeUndefined()
    const [resource] = viewResources([view({})])
    expect(resource?.definition).not.toHaveProperty('_meta')
    expect(resource?.definition.handler().contents[0]).not.toHaveProperty('_meta')
  })

  it('puts the same _meta on the listed resource and on the content resources/read returns', () => {
    const [resource] = viewResources([view({ csp: { connectDomains: ['https://api.example.com'] } })])
    const expected = { 'ui': { csp: { connectDomains: ['https://api.example.com'] } }, 'openai/widgetCSP': { connect_domains: ['https://api.example.com'], resource_domains: [] } }
    expect(resource?.definition._meta).toEqual(expected)
    expect(resource?.definition.handler().contents[0]).toMatchObject({ uri: 'ui://chart', mimeType: 'text/html;profile=mcp-app', _meta: expected })
  })

  it('copies the lists, so the ChatGPT key never aliases the declaration', () => {
    const connectDomains = ['https://api.example.com']
    const meta = viewResourceMeta({ csp: { connectDomains } })
    connectDomains.push('https://evil.example.com')
    expect(meta?.['openai/widgetCSP']).toEqual({ connect_domains: ['https://api.example.com'], resource_domains: [] })
  })
})
