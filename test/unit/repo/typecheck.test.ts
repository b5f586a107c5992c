import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { expect, it } from 'vitest'
import { repoRoot } from '../../utils/fixture'

// The type tests (`expectTypeOf`, `@ts-expect-error` in test/unit and test/e2e) only mean something
// when tsc reads them: vitest strips types. So the suite runs the project's typecheck (about 10 s).
it('the project typechecks (tsc -p tsconfig.json), type tests included', () => {
  const tsc = spawnSync(process.execPath, [resolve(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit'], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 })
  expect(tsc.error).toBeUndefined()
  expect(`${tsc.stdout}${tsc.stderr}`.trim()).toBe('')
  expect(tsc.status).toBe(0)
}, 150_000)
