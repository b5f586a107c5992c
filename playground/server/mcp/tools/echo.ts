import { z } from 'zod'

export default defineMcpTool({
  description: 'Repeats the text',
  inputSchema: { text: z.string().describe('What to repeat') },
  handler: ({ text }) => text,
})
