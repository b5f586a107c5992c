export default defineNuxtConfig({
  modules: ['../src/module'],
  compatibilityDate: '2026-11-01',
  // Nuxt DevTools, with this module's MCP tab (definitions, elicitations and their answers).
  devtools: { enabled: true },
  mcp: {
    name: 'playground',
    instructions: 'A demo of human-in-the-loop tools: registration, release, deletion and account connection, and a long job (build_report) that runs as a task.',
    // The other half: /chat is an MCP host that shows this server's elicitations (docs/host.md).
    host: true,
  },
})
