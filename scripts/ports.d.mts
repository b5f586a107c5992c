// Types of scripts/ports.mjs, for the TypeScript tests that use it.
export declare function freePort(): Promise<number>
export declare function isPortTaken(error: unknown): boolean
export declare function onFreePort<T>(start: (port: number) => Promise<T>, attempts?: number): Promise<T>
export declare function printedPort(output: string): number | undefined
