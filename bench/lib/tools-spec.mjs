// The tools every server under test serves, in one place: `echo`, `ask_form` (one form-mode
// elicitation with 5 fields) and, in the "list" variant, generated tools up to 500 in total.

export const SERVER_NAME = 'bench'
export const TOTAL_LISTED_TOOLS = 500
/** Generated tools added in the list variant (echo + ask_form + these = 500). */
export const GENERATED_TOOLS = TOTAL_LISTED_TOOLS - 2

export const FORM_MESSAGE = 'Your details'

/** The wire form of the question (what the Zod shape below converts to). */
export const FORM_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2 },
    age: { type: 'integer', minimum: 0 },
    plan: { type: 'string', enum: ['free', 'pro'] },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] } },
    subscribe: { type: 'boolean', default: true },
  },
  required: ['name', 'plan'],
}

/** The same 5 fields as a Zod shape, in the source form both Nuxt modules take. */
export const FORM_ZOD_SOURCE = `{
        name: z.string().min(2).meta({ title: 'Name' }),
        age: z.number().int().min(0).optional(),
        plan: z.enum(['free', 'pro']),
        tags: z.array(z.enum(['a', 'b', 'c'])).optional(),
        subscribe: z.boolean().default(true),
      }`

/** What the auto-answering client replies. */
export const FORM_ANSWER = { action: 'accept', content: { name: 'Ada', age: 36, plan: 'pro', tags: ['a', 'c'], subscribe: true } }

export function generatedToolName(index) {
  return `tool_${String(index + 1).padStart(3, '0')}`
}

export const GENERATED_DESCRIPTION = index => `Generated tool ${index + 1} of the listing benchmark: returns its value unchanged.`
export const GENERATED_VALUE_DESCRIPTION = 'Any text'
