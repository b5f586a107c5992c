// Types of scripts/runtimes.mjs, for the TypeScript tests that use it.
export type RuntimeTarget = 'node' | 'bun' | 'deno' | 'workers' | 'workers-poly'
export declare const RUNTIME_PACKAGES: string[]
export declare const RUNTIME_PRESETS: Record<RuntimeTarget, string>
export declare function runtimesDir(): string
/** A built app served by its runtime on loopback. */
export interface RuntimeApp {
  target: RuntimeTarget
  origin: string
  url: URL
  pid: number | undefined
  output: () => string
  stop: () => Promise<void>
}
/** The app built in `root` served by `target`'s runtime: on `port` when given, else on one it binds itself (Node, Deno) or one found free (Bun, workerd). */
export declare function startRuntime(options: { target: RuntimeTarget, root: string, port?: number, env?: Record<string, string> }): Promise<RuntimeApp>
