import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { registerSourceHooks } from '/work/main/scripts/source-hooks.mjs'
import { SIX_FIELD_ANSWER, legacyRun, sixFieldShape } from '/work/main/scripts/ask-form-stub.mjs'
const src = '/work/main/src'
registerSourceHooks(src)
const { askForm } = await import(pathToFileURL(resolve(src, 'runtime/server/elicitation/ask.ts')).href)
const { z } = await import('zod')
for (let r = 0; r < 40; r++) {
  const shapes = Array.from({ length: 300 }, () => sixFieldShape(z))
  for (const schema of shapes) await askForm(legacyRun(SIX_FIELD_ANSWER), { message: 'Who are you?', schema })
}
