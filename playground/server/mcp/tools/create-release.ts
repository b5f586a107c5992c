import { z } from 'zod'

export default defineMcpTool({
  name: 'create_release',
  description: 'Creates a release after asking for the channel and the platforms',
  inputSchema: { name: z.string().describe('Release name, e.g. v1.2.0') },
  async handler({ name }) {
    const elicit = useMcpElicitation()
    const r = await elicit.form({
      message: `Pick a channel for "${name}"`,
      schema: {
        // A union of titled literals is a titled select: the person sees the titles.
        channel: z.union([
          z.literal('stable').meta({ title: 'Stable (everyone)' }),
          z.literal('beta').meta({ title: 'Beta (opt-in testers)' }),
          z.literal('canary').meta({ title: 'Canary (nightly)' }),
        ]),
        platforms: z.array(z.enum(['linux', 'macos', 'windows'])).min(1).meta({ title: 'Platforms' }),
        notify: z.boolean().default(true).meta({ title: 'Notify subscribers' }),
      },
    })
    if (r.action !== 'accept') return `Cancelled (${r.action}).`
    return `Created ${name} on ${r.content.channel} for ${r.content.platforms.join(', ')} (notify=${r.content.notify})`
  },
})
