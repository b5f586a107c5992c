/** The wire schema the elicitation fixture's `ask_form` tool sends (see its source). */
export const ASK_FORM_WIRE_SCHEMA = {
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
