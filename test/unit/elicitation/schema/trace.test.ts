import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../../../utils/fixture'

// Issue 49, item 6: a form's declaration is read once into one node, so following one askForm
// call through the code enters no file more than twice (scripts/trace-ask-form.mjs, which
// instruments every function of src/ and answers with a stub client).

interface TracedCase { label: string, stops: number, perFile: Record<string, number> }

describe('the path of one askForm call', () => {
  it('enters no file more than twice, for Zod 4, zod/v3, ArkType and Valibot forms', () => {
    const traced = spawnSync(process.execPath, [resolve(repoRoot, 'scripts/trace-ask-form.mjs'), '--json'], { cwd: repoRoot, encoding: 'utf8', timeout: 100_000 })
    expect(traced.stderr).toBe('')
    expect(traced.status).toBe(0)
    const cases: TracedCase[] = JSON.parse(traced.stdout)
    expect(cases.map(({ label }) => label)).toEqual([
      'zod (first call)', 'zod (next call, new inline shape)', 'zod3', 'standard (ArkType)', 'json-schema (Valibot + toStandardJsonSchema)',
    ])
    for (const { label, perFile } of cases) {
      expect(Object.entries(perFile).filter(([, entries]) => entries > 2), label).toEqual([])
      // The reading itself runs in the schema folder: the trace does see it.
      expect(perFile['elicitation/schema/read.ts'], label).toBeGreaterThan(0)
    }
    // Loading TypeScript and transpiling the sources takes seconds on a loaded machine.
  }, 120_000)
})
