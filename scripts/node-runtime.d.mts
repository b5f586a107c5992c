// Types of scripts/node-runtime.mjs, for the TypeScript tests that use it.
export declare const SUPPORTED_NODE: string
export declare const NODE_PACKAGES: Record<22 | 24 | 26, string>
export declare const DEFAULT_NODE_MAJOR: 24
export declare function isSupportedNode(version?: string): boolean
export declare function nodeBinary(major: 22 | 24 | 26): string
export declare function installIntoCache(folder: string, specs: string[]): string
export declare function envWithNode(binary: string, env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv
export declare function ensureSupportedNode(script: string): void
export declare function isStaleCacheFailure(output: string): boolean
export declare function npmInstall(args: string[], options: { cwd: string, timeout?: number, label?: string }): void
