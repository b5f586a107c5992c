import { z } from 'zod'

export default defineMcpTool({
  name: 'book_stay',
  description: 'Books a stay, asking for the dates (rendered as a date-range picker where the host can)',
  async handler(_args, { elicit }) {
    const answer = await elicit.form({
      message: 'When do you arrive and leave?',
      schema: { from: z.iso.date().describe('Arrival'), to: z.iso.date().describe('Departure') },
      view: 'dates',
    })
    return answer.action === 'accept' ? `Booked ${answer.content.from} to ${answer.content.to}` : `No booking (${answer.action})`
  },
})
