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
    host: {
      // MCP App views run in a sandbox on another origin, never the app's. `sandbox.localhost` is
      // loopback in Chromium and Firefox (RFC 6761) and another origin than both `localhost` and
      // `127.0.0.1`, so views show out of the box in `npm run dev` and built, whichever loopback
      // name the page is opened on. In production set NUXT_MCP_HOST_APPS_SANDBOX_ORIGIN to an
      // origin of your own that reaches this server (README, docs/host.md).
      apps: { sandboxOrigin: 'sandbox.localhost' },
    },
  },
})
