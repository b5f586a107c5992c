import { defineNitroPlugin } from 'nitropack/runtime'
import { recordCall } from '../devtools/call-recorder'
import { recordQuestion } from '../devtools/recorder'

// Added by the module in `nuxi dev` with `mcp.devtools` only (src/build/dev/devtools.ts): the MCP tab
// listens to the same hooks an app does, as one listener among others. A production build has
// no such plugin, so it keeps nothing of the calls or of what people answered.
export default defineNitroPlugin((nitro) => {
  nitro.hooks.hook('mcp:call', recordCall)
  nitro.hooks.hook('mcp:question', recordQuestion)
})
