import { z } from 'zod'

let refreshes = 0
/** Called from the weather view only: hosts keep it from the model. */
export default defineMcpTool({
  name: 'refresh_weather',
  description: 'Reads the weather again',
  inputSchema: { city: z.string() },
  view: { name: 'weather', visibility: ['app'] },
  handler: ({ city }) => `Refreshed ${city} (${++refreshes})`,
})
