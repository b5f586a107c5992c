import { z } from 'zod'

export default defineMcpTool({
  description: 'Registers a new user after asking for their details',
  annotations: { openWorldHint: false },
  async handler() {
    const elicit = useMcpElicitation()
    const answer = await elicit.form({
      message: 'Please fill in your registration details',
      schema: {
        name: z.string().min(1).meta({ title: 'Full name' }),
        email: z.email().meta({ title: 'Email' }),
        age: z.number().int().min(13).max(130).optional().meta({ title: 'Age' }),
        newsletter: z.boolean().default(false).meta({ title: 'Subscribe to the newsletter' }),
      },
    })
    if (answer.action !== 'accept') return answer.action === 'decline' ? 'Registration declined.' : 'Registration cancelled.'
    const { name, email, age, newsletter } = answer.content
    return `Registered ${name} <${email}>${age ? `, age ${age}` : ''}, newsletter: ${newsletter ? 'yes' : 'no'}`
  },
})
