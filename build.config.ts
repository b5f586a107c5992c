import { defineBuildConfig } from 'unbuild'

export default defineBuildConfig({
  // The runtime is shipped as files (mkdist) so Nitro bundles it with the app.
  declaration: true,
})
