import { defineBuildConfig } from 'unbuild'

export default defineBuildConfig({
  // module-builder adds src/module and the runtime (shipped as files so Nitro bundles it with
  // the app); the test helpers are one more bundled entry: `nuxt-mcp-elicitation/testing`.
  entries: [{ input: 'src/testing/index', name: 'testing' }],
  declaration: true,
})
