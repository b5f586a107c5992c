// Types of scripts/chaos/run.mjs, for the TypeScript test that runs its short version.
/** One invariant of a chaos run, as the table prints it. */
export interface ChaosRow {
  name: string
  ok: boolean
  figure: string
}
export interface ChaosCall {
  kind: string
  user: string
  call: string
  ok: boolean
  failure?: string
  message?: string
  at: number
  ms: number
}
export interface ChaosRun {
  seed: number
  seconds: number
  rows: ChaosRow[]
  calls: ChaosCall[]
  ok: boolean
  report: string
}
/** The chaos run against the shared-state fixture built in `root`/test/fixtures/shared-state. */
export declare function runChaos(options: { root: string, seconds: number, seed: number, persistence?: 'always' | 'everysec' | 'none', log?: (line: string) => void }): Promise<ChaosRun>
