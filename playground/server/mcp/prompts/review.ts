import { z } from 'zod'

export default defineMcpPrompt({
  description: 'Ask for a code review of a file',
  arguments: { file: z.string().describe('Path of the file to review') },
  handler: ({ file }) => `Please review ${file} for bugs and unclear names.`,
})
