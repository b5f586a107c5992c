export default defineNuxtConfig({
  modules: ['../src/module'],
  compatibilityDate: '2026-11-01',
  // Nuxt DevTools, with this module's MCP tab (definitions, elicitations and their answers).
  devtools: { enabled: true },
  mcp: {
    name: 'playground',
    instructions: 'A demo of human-in-the-loop tools: registration, release, deletion and account connection, and a long job (build_report) that runs as a task.',
    // Where links to the app's question page point, for clients that cannot show a question
    // (Claude Code, Claude Desktop): the playground's own address. In production: your public URL.
    publicUrl: 'http://localhost:3000',
    // The other half: /chat is an MCP host that shows this server's elicitations (docs/host.md).
    host: true,
  },
})
