import { z } from 'zod'

const STEPS = ['Reading the orders', 'Totalling by region', 'Totalling by product', 'Comparing with last month', 'Drawing the charts', 'Writing the summary']

/**
 * A long job: about 48 s, a step every 8 s, each reported with `progress()`. A client that asks
 * for a task (the Inspector's "Run as task") gets one at once; any other client gets "it goes
 * on" after 30 s (`mcp.tasks.detachAfterMs`) and sees the progress, then the report, by calling
 * the tool again with the same arguments (docs/tasks.md, "Clients without tasks").
 */
export default defineMcpTool({
  name: 'build_report',
  description: 'Builds the monthly sales report (takes about a minute and reports its progress)',
  inputSchema: { month: z.string().regex(/^\d{4}-\d{2}$/).describe('The month, e.g. 2026-11') },
  execution: { taskSupport: 'optional' },
  async handler({ month }, context) {
    const elicit = useMcpElicitation()
    for (const [index, step] of STEPS.entries()) {
      // What it does now: the task's status message once the call went on as a task.
      await context.progress(index, STEPS.length, `${step} (step ${index + 1} of ${STEPS.length})`)
      // A step done is never done again, even when another instance takes the task over.
      await elicit.once(`step-${index}`, async () => {
        // `context.signal` read here, not destructured at the top: the call may go on as a task
        // mid-way, and then it is the task's (cancelled, or its time to live over).
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, 8_000)
          context.signal.addEventListener('abort', () => {
            clearTimeout(timer)
            reject(new Error('The report was stopped.'))
          }, { once: true })
        })
        return true
      })
    }
    return `The ${month} sales report is ready: 1,204 orders, 3 regions, up 4% on the month before.`
  },
})
