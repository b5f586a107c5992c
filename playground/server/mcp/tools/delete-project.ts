import { z } from 'zod'

export default defineMcpTool({
  name: 'delete_project',
  description: 'Deletes a project, after the user confirms',
  annotations: { destructiveHint: true },
  inputSchema: { project: z.string() },
  async handler({ project }) {
    const confirmed = await useMcpElicitation().confirm(`Really delete the project "${project}"? This cannot be undone.`)
    return confirmed ? `Deleted ${project}.` : `Kept ${project}.`
  },
})
