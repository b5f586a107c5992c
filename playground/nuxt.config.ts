export default defineNuxtConfig({
  modules: ['../src/module'],
  compatibilityDate: '2026-11-01',
  devtools: { enabled: false },
  mcp: {
    name: 'playground',
    instructions: 'A demo of human-in-the-loop tools: registration, release, deletion and account connection.',
    // The other half: /chat is an MCP host that shows this server's elicitations (docs/host.md).
    host: true,
  },
})
