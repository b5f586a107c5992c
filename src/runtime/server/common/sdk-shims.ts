// What the MCP SDK's server imports from its own `@modelcontextprotocol/server/_shims`, for a
// Worker: the build points that import here (src/build/preset-wings.ts) when the SDK's Workers shims
// export just these two names. The same as the SDK's, without the default JSON Schema validator
// (@cfworker/json-schema, 6 kB gzip): the SDK uses it only in `elicitInput` and `fromJsonSchema`,
// which the module never calls (it checks answers itself, and a tool's JSON Schema written by
// hand with its own copy, mcp/definitions/json-schema-arguments.ts, kept only where a tool has one). Nor does
// it warm the SDK's schemas at load (`preloadSchemas`): they are built at first use, as on Node.

function unavailable(what: string): never {
  throw new Error(`[nuxt-mcp-elicitation] ${what} is not part of this Worker build of the MCP SDK: the module answers for it itself.`)
}

/**
 * Stands in for the SDK's default JSON Schema validator. A `Server` makes one when it is built;
 * asking it to validate (the SDK's `elicitInput`, `fromJsonSchema`) says it is left out.
 *
 * @example
 * ```ts
 * new DefaultJsonSchemaValidator().getValidator({}) // throws, naming what is left out
 * ```
 */
export class DefaultJsonSchemaValidator {
  getValidator(): never {
    return unavailable('The SDK\'s default JSON Schema validator')
  }
}

/**
 * Stands in for the SDK's `process` on Workers: stdio is not served there.
 *
 * @example
 * ```ts
 * process.stdin // throws: stdio is not part of this build
 * ```
 */
export const process = {
  get stdin(): never {
    return unavailable('stdio')
  },
  get stdout(): never {
    return unavailable('stdio')
  },
}
