// Types of scripts/chaos/workers.mjs, for the unit test of its failure classifier.
/** How a failed call ended, by kind: the first pattern that matches the failure's text wins. */
export declare const FAILURE_KINDS: Record<string, RegExp>
/** The kind of a failure (an error, with its causes, or a tool's error text), or `unclassified`. */
export declare function classifyFailure(error: unknown): string
