// The tools every server under test serves, in one place: `echo`, `ask_form` (one form-mode
// elicitation with 5 fields), the app-shaped tools below (what a real app has beside them: input
// shapes with limits and defaults, one more elicitation) and, in the "list" variant, generated
// tools up to 500 in total.

export const SERVER_NAME = 'bench'
export const TOTAL_LISTED_TOOLS = 500

/**
 * Tools a real app has beside the measured ones, given once as source so the Nuxt apps (tool
 * files) and the floors (registerTool in their per-request factory, the SDKs' documented form)
 * serve the very same: `shape` is a Zod shape literal (`z` in scope), `body` the handler's body
 * (`args` in scope) returning text. None is called under load: they weigh on what every request
 * pays for the app's size (a floor's factory registers them all on every request).
 */
export const APP_TOOLS = [
  {
    name: 'search_notes',
    description: 'Finds notes that contain the words',
    shape: `{ query: z.string().min(1).describe('Words to look for'), limit: z.number().int().min(1).max(50).default(10) }`,
    body: `return JSON.stringify(['release plan', 'beta notes', 'retro', 'hiring plan', 'budget'].filter(note => note.includes(args.query)).slice(0, args.limit))`,
  },
  {
    name: 'create_ticket',
    description: 'Files a ticket',
    shape: `{ title: z.string().min(3), priority: z.enum(['low', 'normal', 'high']).default('normal'), labels: z.array(z.string()).optional() }`,
    body: `return JSON.stringify({ id: 'T-' + args.title.length, title: args.title, priority: args.priority, labels: args.labels ?? [] })`,
  },
  {
    name: 'get_forecast',
    description: 'Weather for the next days',
    shape: `{ city: z.string(), days: z.number().int().min(1).max(7).default(3), units: z.enum(['metric', 'imperial']).default('metric') }`,
    body: `return JSON.stringify(Array.from({ length: args.days }, (_, i) => ({ day: i + 1, city: args.city, high: 20 + i, units: args.units })))`,
  },
]

/** The second eliciting tool: one yes/no field, asked before a (pretend) deletion. */
export const CONFIRM_TOOL = { name: 'confirm_delete', description: 'Deletes a note after asking', message: 'Delete the note?' }
export const CONFIRM_SCHEMA = { type: 'object', properties: { confirm: { type: 'boolean', title: 'Delete it' } }, required: ['confirm'] }
export const CONFIRM_ZOD_SOURCE = `{ confirm: z.boolean().meta({ title: 'Delete it' }) }`

/** Generated tools added in the list variant (echo, ask_form, the app's tools + these = 500). */
export const GENERATED_TOOLS = TOTAL_LISTED_TOOLS - 3 - APP_TOOLS.length

/** An app tool's shape builder and handler, compiled once from its source (for the floors). */
export function compileAppTool(tool) {
  return { ...tool, makeShape: new Function('z', `return ${tool.shape}`), run: new Function('args', tool.body) }
}

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
