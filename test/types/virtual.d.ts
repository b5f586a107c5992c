// For type-checking the module's own sources: apps get this from the module's type template
// (src/build/virtual-modules.ts declares each; test/unit/build/virtual-modules.test.ts keeps them equal).
declare module '#mcp-elicitation/options' {
  export const route: string
  export const endpointKeys: Record<string, string>
}
declare module '#mcp-elicitation/definitions' {
  const definitions: Record<string, import('../../src/runtime/server/mcp/definitions/registry').McpDefinitions>
  export default definitions
}
declare module '#mcp-elicitation/otel' {
  export const otel: import('../../src/runtime/server/mcp/observing/tracing').McpOtelApi | undefined
}
declare module '#mcp-elicitation/skills' {
  const skills: Record<string, import('../../src/runtime/server/mcp/skills/skills').McpSkills>
  export default skills
}
declare module '#mcp-elicitation/views' {
  const views: import('../../src/runtime/server/mcp/views/apps').McpView[]
  export default views
  export const viewTools: import('../../src/runtime/server/mcp/views/view-tools').ViewToolEntry[]
}
declare module '#mcp-elicitation/tasks' {
  export const createTaskRuntime: typeof import('../../src/runtime/server/tasks/calls/runtime').createTaskRuntime | undefined
}
declare module '#mcp-elicitation/legacy' {
  export const createLegacySessions: typeof import('../../src/runtime/server/transport/sessions/create-legacy-sessions').createLegacySessions | undefined
}
declare module '#mcp-elicitation/redis' {
  export const connectSharedState: typeof import('../../src/runtime/server/cluster/load-redis-state').connectSharedState | undefined
}
declare module '#mcp-elicitation/bearer' {
  export const createBearerCheck: typeof import('../../src/runtime/server/transport/oauth/bearer').createBearerCheck | undefined
}
declare module '#mcp-elicitation/json-schema' {
  export const jsonSchemaArguments: typeof import('../../src/runtime/server/mcp/definitions/json-schema-arguments').jsonSchemaArguments | undefined
}
declare module '#mcp-elicitation/skills-runtime' {
  export const serveSkills: typeof import('../../src/runtime/server/mcp/server/skills').serveSkills | undefined
}
declare module '#mcp-elicitation/page' {
  export const serveQuestionPage: typeof import('../../src/runtime/server/page/serve').serveQuestionPage | undefined
}
