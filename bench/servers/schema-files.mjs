// The schemas phase's app files (bench/measure/schemas.mjs), beside the variants of
// nuxt-apps.mjs: the same echo tool and the same 5-field form written with Zod, Valibot (through
// its documented `toStandardJsonSchema()`) and ArkType, each library converting its schema to JSON
// Schema once, when the definition is first read.
import { writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'

export const SCHEMA_LIBRARIES = ['zod', 'valibot', 'arktype']

const IMPORTS = {
  zod: `import { z } from 'zod'`,
  valibot: `import * as v from 'valibot'\nimport { toStandardJsonSchema } from '@valibot/to-json-schema'`,
  arktype: `import { type } from 'arktype'`,
}
const ECHO_INPUT = {
  zod: `{ text: z.string().min(1).max(200) }`,
  valibot: `toStandardJsonSchema(v.object({ text: v.pipe(v.string(), v.minLength(1), v.maxLength(200)) }))`,
  arktype: `type({ text: '0 < string <= 200' })`,
}
// The bench's ask_form (lib/tools-spec.mjs) in each library: the answer FORM_ANSWER passes all three.
const FORM_SCHEMA = {
  zod: `{
  name: z.string().min(2).meta({ title: 'Name' }),
  age: z.number().int().min(0).optional(),
  plan: z.enum(['free', 'pro']),
  tags: z.array(z.enum(['a', 'b', 'c'])).optional(),
  subscribe: z.boolean().default(true),
}`,
  valibot: `toStandardJsonSchema(v.object({
  name: v.pipe(v.string(), v.minLength(2), v.title('Name')),
  age: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  plan: v.picklist(['free', 'pro']),
  tags: v.optional(v.array(v.picklist(['a', 'b', 'c']))),
  subscribe: v.optional(v.boolean(), true),
}))`,
  arktype: `type({
  name: 'string >= 2',
  'age?': 'number.integer >= 0',
  plan: "'free' | 'pro'",
  'tags?': "('a' | 'b' | 'c')[]",
  subscribe: 'boolean = true',
})`,
}

/** Writes `echo_<library>` and `form_<library>` for each library into the app at `dir`. */
export async function writeSchemaFiles(dir) {
  const tools = resolve(dir, 'server/mcp/tools')
  for (const library of SCHEMA_LIBRARIES) {
    await writeFile(resolve(tools, `echo-${library}.ts`), `${IMPORTS[library]}

export default defineMcpTool({
  name: 'echo_${library}',
  description: 'Returns the text (${library} input schema)',
  inputSchema: ${ECHO_INPUT[library]},
  handler: ({ text }) => text,
})
`)
    await writeFile(resolve(tools, `form-${library}.ts`), `${IMPORTS[library]}

// The schema at module level, as a Valibot or ArkType user writes it (one object, converted once).
const details = ${FORM_SCHEMA[library]}

export default defineMcpTool({
  name: 'form_${library}',
  description: 'Asks for the 5-field form (${library} schema)',
  async handler() {
    const r = await useMcpElicitation().form({ message: 'Your details', schema: details })
    return r.action === 'accept' ? JSON.stringify(r.content) : r.action
  },
})
`)
  }
}
