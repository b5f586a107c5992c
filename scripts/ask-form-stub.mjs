// One legacy `askForm` call without a server, as scripts/trace-ask-form.mjs and
// bench/measure/ask-form-schema.mjs make it: the run the engine builds for one tool call, with a
// client stub that accepts every form at once, and the six-field Zod form both of them ask.

const config = {
  elicitation: { timeoutMs: 60_000, stateTtlSeconds: 60, maxAttempts: 3, progressIntervalMs: 0, allowInsecureUrls: false },
}

/**
 * A legacy run whose client accepts every form with `content`.
 *
 * @example
 * const result = await askForm(legacyRun(SIX_FIELD_ANSWER), { message: 'Who are you?', schema: sixFieldShape(z) })
 */
export function legacyRun(content) {
  // Only `send` (elicitation/create) is reached on an accepted form; the others must not be.
  const unused = async () => {
    throw new Error('not sent by a legacy askForm that is answered at once')
  }
  const signal = new AbortController().signal
  return {
    scope: { era: 'legacy', route: '/mcp', signal, principal: undefined, sessionId: 'session-1' },
    ctx: { sessionId: 'session-1', mcpReq: { id: 1, method: 'tools/call', signal, send: async () => ({ action: 'accept', content }), notify: unused, log: unused } },
    config,
    capabilities: { elicitation: { form: {} } },
    protocolVersion: '2025-11-25',
    calls: 0,
  }
}

/**
 * A Zod 4 shape of six fields (limits, an optional, an enum, an array of enums, a default, a
 * format), written anew on every call as a tool usually writes it inline.
 *
 * @example
 * const schema = sixFieldShape(z)
 */
export function sixFieldShape(z) {
  return {
    name: z.string().min(2).meta({ title: 'Name' }),
    age: z.number().int().min(0).optional(),
    plan: z.enum(['free', 'pro']),
    tags: z.array(z.enum(['a', 'b', 'c'])).optional(),
    notify: z.boolean().default(true),
    email: z.email(),
  }
}

/** An answer `sixFieldShape` accepts. */
export const SIX_FIELD_ANSWER = { name: 'Ada', age: 36, plan: 'pro', tags: ['a'], email: 'ada@example.com' }
