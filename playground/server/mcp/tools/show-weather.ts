import { z } from 'zod'

export default defineMcpTool({
  name: 'show_weather',
  description: 'Shows the weather of a city, as an MCP App',
  inputSchema: { city: z.string() },
  outputSchema: { city: z.string(), celsius: z.number() },
  view: 'weather',
  handler: ({ city }) => ({ city, celsius: 10 + (city.length % 15) }),
})
