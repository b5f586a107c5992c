// Types of scripts/chaos/report.mjs, for the unit test of its verdicts.
/** A chaos call as the run writes it down, as far as the verdicts read it. */
export interface ChaosCallTiming {
  /** The client kind (`v1`, `tasks-modern`, …). */
  kind: string
  /** When the call started, in ms into the run. */
  at: number
  /** How long it ran, in ms. */
  ms: number
}

/** A kill of the run: when (ms into the run) and which process. */
export interface ChaosKill {
  at: number
  pid: number
}

export declare function isRunnerKilledTwice(call: ChaosCallTiming, startedOn: number[], kills: ChaosKill[]): boolean
