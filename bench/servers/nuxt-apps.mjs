// Generates and builds the two Nuxt apps (ours and the @nuxtjs/mcp-toolkit anchor), each in a
// "base" variant (echo, ask_form and the app's other tools) and a "list" variant (500 tools); ours
// also in a "tasks" variant (the base tools and two task-capable ones: bench/measure/tasks.mjs) and
// an "apps" variant (the base tools and one MCP App view with its tool: bench/measure/apps.mjs).
// Both modules take the same tool files: defineMcpTool + useMcpElicitation().form().
// Ours is built the way a user builds it (packed tarball, scratch app outside the repo, default
// config: packed-install.mjs); with a deploy preset (runtime and several-instances phases) it is
// built from src/ under bench/.work/apps, as the anchor always is.
import { execFile } from 'node:child_process'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { relative, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { nuxi, repoRoot, workDir } from '../lib/paths.mjs'
import { dirBytes } from '../lib/proc.mjs'
import { APP_TOOLS, CONFIRM_TOOL, CONFIRM_ZOD_SOURCE, FORM_MESSAGE, FORM_ZOD_SOURCE, GENERATED_DESCRIPTION, GENERATED_TOOLS, GENERATED_VALUE_DESCRIPTION, generatedToolName } from '../lib/tools-spec.mjs'
import { packedNuxi, packedRoot } from './packed-install.mjs'
import { writeObserveFiles } from './observe-files.mjs'
import { writeSchemaFiles } from './schema-files.mjs'

/** Where an app is generated: ours without a preset in the packed scratch folder. */
export function appDirOf(kind, variant, preset) {
  if (kind === 'us' && !preset) return resolve(packedRoot, `us-${variant}`)
  return resolve(workDir, 'apps', preset ? `${kind}-${variant}-${preset}` : `${kind}-${variant}`)
}

const COMMON = `compatibilityDate: '2026-11-01',\n  devtools: { enabled: false },`

/** nuxt.config per app kind; ours with its default config, the anchor as the brief asks. */
function nuxtConfig(kind, appDir, preset, variant) {
  if (kind === 'us' && !preset) return `export default defineNuxtConfig({\n  modules: ['nuxt-mcp-elicitation'],\n  ${COMMON}\n})\n`
  if (kind === 'us') {
    const modulePath = relative(appDir, resolve(repoRoot, 'src/module'))
    const nitro = preset ? `\n  nitro: { preset: ${JSON.stringify(preset)} },` : ''
    // The tasks phase holds its waiting tasks under one (anonymous) caller: the caps (per caller,
    // and the tasks kept in all, whose default is as many) are raised for it.
    // The observability phase's baseline and hooks apps, and the hooks measurement's app
    // (measure/hooks.mjs), leave OpenTelemetry out, as an app without @opentelemetry/api has it
    // (the repo's node_modules has it for the tests).
    const mcp = variant === 'tasks'
      ? `\n  mcp: { tasks: { maxPerPrincipal: ${TASKS_HELD_AT_ONCE}, max: ${2 * TASKS_HELD_AT_ONCE} } },`
      : variant === 'observe-none' || variant === 'observe-hooks' || variant === 'hooks' ? `\n  mcp: { telemetry: false },` : ''
    return `export default defineNuxtConfig({\n  modules: [${JSON.stringify(modulePath)}],\n  ${COMMON}${nitro}${mcp}\n})\n`
  }
  return `export default defineNuxtConfig({\n  modules: ['@nuxtjs/mcp-toolkit'],\n  ${COMMON}\n  mcp: { name: 'bench', sessions: true },\n  nitro: { experimental: { asyncContext: true } },\n})\n`
}

const ECHO_TOOL = `import { z } from 'zod'

export default defineMcpTool({
  name: 'echo',
  description: 'Repeats the text',
  inputSchema: { text: z.string() },
  handler: async ({ text }) => text,
})
`

const FORM_TOOL = `import { z } from 'zod'

export default defineMcpTool({
  name: 'ask_form',
  description: 'Asks the person for 5 fields',
  handler: async () => {
    const r = await useMcpElicitation().form({
      message: ${JSON.stringify(FORM_MESSAGE)},
      schema: ${FORM_ZOD_SOURCE},
    })
    return JSON.stringify(r)
  },
})
`

// Ours only, for the report's breakdown: the same form with its shape built once at module level,
// so the user's own Zod construction per round is out of the modern elicitation figure.
const FORM_TOOL_HOISTED = `import { z } from 'zod'

const shape = ${FORM_ZOD_SOURCE.replace(/\n {6}/g, '\n')}

export default defineMcpTool({
  name: 'ask_form_hoisted',
  description: 'Asks the person for 5 fields (shape defined once)',
  handler: async () => {
    const r = await useMcpElicitation().form({ message: ${JSON.stringify(FORM_MESSAGE)}, schema: shape })
    return JSON.stringify(r)
  },
})
`

const CONFIRM = `import { z } from 'zod'

export default defineMcpTool({
  name: '${CONFIRM_TOOL.name}',
  description: ${JSON.stringify(CONFIRM_TOOL.description)},
  handler: async () => {
    const r = await useMcpElicitation().form({ message: ${JSON.stringify(CONFIRM_TOOL.message)}, schema: ${CONFIRM_ZOD_SOURCE} })
    return r.action === 'accept' && r.content.confirm ? 'deleted' : 'kept'
  },
})
`

function appTool({ name, description, shape, body }) {
  return `import { z } from 'zod'

export default defineMcpTool({
  name: '${name}',
  description: ${JSON.stringify(description)},
  inputSchema: ${shape},
  handler: async (args) => {
    ${body}
  },
})
`
}

// Ours only, for the report: the form behind a `once()` step, so the flow pays the replay guard
// (a record in the store per step, checked on every round) that the SDK floor has no counterpart of.
const FORM_TOOL_ONCE = `import { z } from 'zod'

export default defineMcpTool({
  name: 'ask_form_once',
  description: 'Reserves an id once, then asks the person for 5 fields',
  handler: async () => {
    const elicit = useMcpElicitation()
    const reservation = await elicit.once('reserve', async () => 'r-1')
    const r = await elicit.form({
      message: ${JSON.stringify(FORM_MESSAGE)},
      schema: ${FORM_ZOD_SOURCE},
    })
    return JSON.stringify({ reservation, ...r })
  },
})
`

/** The most tasks the tasks phase holds at once (bench/measure/tasks.mjs), with room to spare. */
export const TASKS_HELD_AT_ONCE = 10_000

// The tasks phase (variant "tasks"): echo and ask_form again, task-capable. A client that declared
// the tasks extension gets a task; one that did not gets the ordinary call, so one tool is both sides.
const ECHO_TASK_TOOL = ECHO_TOOL.replace(`name: 'echo',`, `name: 'echo_task',\n  execution: { taskSupport: 'optional' },`)
// Waits on a timer before it answers: past the turn in which the server hands out the task, so
// it is always a task (the immediate-result shortcut cannot apply).
const ECHO_TASK_LATER_TOOL = ECHO_TASK_TOOL.replace(`name: 'echo_task',`, `name: 'echo_task_later',`).replace('handler: async ({ text }) => text,', 'handler: async ({ text }) => {\n    await new Promise(resolve => setTimeout(resolve, 0))\n    return text\n  },')
const FORM_TASK_TOOL = FORM_TOOL.replace(`name: 'ask_form',`, `name: 'ask_form_task',\n  execution: { taskSupport: 'optional' },`)

// The apps phase (variant "apps"): one view with one component, the kind the size goal is
// about, and the tool that shows it.
export const VIEW_SFC = `<script setup lang="ts">
import { computed } from 'vue'

const { data, loading } = useMcpView()
const bars = computed(() => (data.value?.bars ?? []) as number[])
</script>

<template>
  <p v-if="loading">Loading…</p>
  <ul v-else class="chart">
    <li v-for="(bar, index) in bars" :key="index" :style="{ width: bar + '%' }">{{ bar }}</li>
  </ul>
</template>

<style scoped>
.chart li { background: steelblue; color: white; margin: 2px 0; list-style: none }
</style>
`
const VIEW_TOOL = `export default defineMcpTool({
  name: 'show_chart',
  description: 'Shows a chart',
  view: 'chart',
  handler: () => ({ content: [{ type: 'text', text: 'chart' }], structuredContent: { bars: [10, 40, 70] } }),
})
`

// Same as servers/gc-route.mjs, as a Nitro route (both Nuxt apps get it).
const GC_ROUTE = `export default defineEventHandler(() => {
  for (let i = 0; i < 3; i++) globalThis.gc?.()
  return process.memoryUsage()
})
`

function generatedTool(index) {
  return `import { z } from 'zod'

export default defineMcpTool({
  name: '${generatedToolName(index)}',
  description: ${JSON.stringify(GENERATED_DESCRIPTION(index))},
  inputSchema: { value: z.string().describe(${JSON.stringify(GENERATED_VALUE_DESCRIPTION)}) },
  handler: async ({ value }) => value,
})
`
}

/**
 * Writes bench/.work/apps/<kind>-<variant>: a Nuxt app with no pages, only MCP tools; built with
 * `preset` when given (the runtimes phase: bench/measure/runtimes.mjs).
 */
export async function generateApp(kind, variant, preset) {
  const dir = appDirOf(kind, variant, preset)
  await rm(dir, { recursive: true, force: true })
  const tools = resolve(dir, 'server/mcp/tools')
  await mkdir(tools, { recursive: true })
  await writeFile(resolve(dir, 'package.json'), JSON.stringify({ name: 'bench', private: true, type: 'module' }))
  await writeFile(resolve(dir, 'nuxt.config.ts'), nuxtConfig(kind, dir, preset, variant))
  await writeFile(resolve(tools, 'echo.ts'), ECHO_TOOL)
  await writeFile(resolve(tools, 'ask-form.ts'), FORM_TOOL)
  if (kind === 'us') await writeFile(resolve(tools, 'ask-form-hoisted.ts'), FORM_TOOL_HOISTED)
  if (kind === 'us') await writeFile(resolve(tools, 'ask-form-once.ts'), FORM_TOOL_ONCE)
  await writeFile(resolve(tools, 'confirm-delete.ts'), CONFIRM)
  for (const tool of APP_TOOLS) await writeFile(resolve(tools, `${tool.name.replaceAll('_', '-')}.ts`), appTool(tool))
  await mkdir(resolve(dir, 'server/routes/__bench'), { recursive: true })
  await writeFile(resolve(dir, 'server/routes/__bench/gc.get.ts'), GC_ROUTE)
  if (variant === 'tasks') {
    await writeFile(resolve(tools, 'echo-task.ts'), ECHO_TASK_TOOL)
    await writeFile(resolve(tools, 'echo-task-later.ts'), ECHO_TASK_LATER_TOOL)
    await writeFile(resolve(tools, 'ask-form-task.ts'), FORM_TASK_TOOL)
  }
  if (variant === 'apps') {
    await mkdir(resolve(dir, 'app/mcp'), { recursive: true })
    await writeFile(resolve(dir, 'app/mcp/chart.vue'), VIEW_SFC)
    await writeFile(resolve(tools, 'show-chart.ts'), VIEW_TOOL)
  }
  if (variant.startsWith('observe-')) await writeObserveFiles(dir, variant)
  if (variant === 'schemas') await writeSchemaFiles(dir)
  if (variant === 'list') {
    for (let i = 0; i < GENERATED_TOOLS; i++) await writeFile(resolve(tools, `${generatedToolName(i).replace('_', '-')}.ts`), generatedTool(i))
  }
  return dir
}

/**
 * `nuxi build` with a time limit (the scratch app's own CLI for a packed app); resolves with the
 * wall time, the output size and the log.
 */
export async function buildApp(dir, logFile) {
  const started = performance.now()
  const cli = dir.startsWith(packedRoot) ? packedNuxi : nuxi
  const log = await new Promise((resolveBuild, reject) => {
    execFile(process.execPath, [cli, 'build', dir], {
      cwd: dir,
      timeout: 300_000,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, NODE_ENV: 'production', NUXT_TELEMETRY_DISABLED: '1' },
    }, (error, stdout, stderr) => {
      const text = `${stdout}\n${stderr}`
      void writeFile(logFile, text)
      if (error) reject(new Error(`nuxi build ${dir} failed (${error.message.split('\n')[0]}); log: ${logFile}\n${text.slice(-3000)}`))
      else resolveBuild(text)
    })
  })
  const buildMs = performance.now() - started
  const output = resolve(dir, '.output')
  return { buildMs, outputBytes: await dirBytes(output), entry: resolve(output, 'server/index.mjs'), log }
}
