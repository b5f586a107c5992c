/**
 * The DevTools tab: one self-contained page (Nuxt DevTools shows it in an iframe; it also works
 * on its own in a browser tab). It polls `<base>.json` and renders with `textContent` only, so
 * nothing a tool description or an answer contains can run as markup.
 */

const STYLE = `
:root { color-scheme: light dark; font: 14px/1.45 system-ui, sans-serif; }
body { margin: 0; padding: 16px 20px; }
h1 { font-size: 18px; margin: 0 0 4px; } h2 { font-size: 15px; margin: 20px 0 6px; }
.muted { opacity: .65; } table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #8883; vertical-align: top; }
th { font-weight: 600; } code, pre { font: 12px ui-monospace, monospace; } pre { margin: 0; white-space: pre-wrap; }
.accept { color: #16a34a; } .decline, .cancel, .timeout, .cancelled, .error, .invalid-response, .invalid, .issue { color: #dc2626; }
.waiting, .sent { color: #d97706; }
`

const SCRIPT = `
const dataUrl = location.pathname.replace(/\\/$/, '') + '.json'
const cell = (row, text, className) => { const td = row.insertCell(); td.textContent = text ?? ''; if (className) td.className = className; return td }
function fill(id, items, columns, empty) {
  const body = document.getElementById(id)
  body.replaceChildren()
  if (items.length === 0) { cell(body.insertRow(), empty).colSpan = columns.length; return }
  for (const item of items) { const row = body.insertRow(); for (const column of columns) column(row, item) }
}
async function refresh() {
  let data
  try { data = await (await fetch(dataUrl, { cache: 'no-store' })).json() }
  catch (error) { document.getElementById('status').textContent = 'Dev server unreachable: ' + error.message; return }
  document.getElementById('status').textContent = data.server.name + ' ' + data.server.version + ' · refreshed ' + new Date().toLocaleTimeString()
  fill('tools', data.tools, [(r, t) => cell(r, t.name), (r, t) => cell(r, t.description), (r, t) => cell(r, t.fields.join(', ')), (r, t) => cell(r, t.file, 'muted')], 'No tools in server/mcp/tools.')
  fill('resources', data.resources, [(r, t) => cell(r, t.name), (r, t) => cell(r, t.uri), (r, t) => cell(r, t.description), (r, t) => cell(r, t.file, 'muted')], 'No resources in server/mcp/resources.')
  fill('prompts', data.prompts, [(r, t) => cell(r, t.name), (r, t) => cell(r, t.description), (r, t) => cell(r, t.arguments.join(', ')), (r, t) => cell(r, t.file, 'muted')], 'No prompts in server/mcp/prompts.')
  fill('elicitations', data.elicitations, [
    (r, e) => cell(r, new Date(e.at).toLocaleTimeString()),
    (r, e) => cell(r, e.era),
    (r, e) => cell(r, e.target + (e.method ? ' (' + e.method + ')' : '')),
    (r, e) => cell(r, e.mode),
    (r, e) => cell(r, e.message),
    (r, e) => cell(r, e.url ?? (e.fields ?? []).join(', ')),
    (r, e) => cell(r, e.outcome, e.outcome.split(/[ ,]/)[0]),
    (r, e) => cell(r, e.ms === undefined ? '' : e.ms + ' ms'),
    (r, e) => {
      const td = r.insertCell()
      const pre = document.createElement('pre')
      pre.textContent = e.content === undefined ? '' : JSON.stringify(e.content, null, 1)
      td.append(pre)
      for (const issue of e.issues ?? []) { const p = document.createElement('div'); p.className = 'issue'; p.textContent = issue; td.append(p) }
    },
  ], 'Nothing asked yet. Run a tool that calls useMcpElicitation() from a client.')
  fill('tasks', data.tasks, [
    (r, t) => cell(r, new Date(t.at).toLocaleTimeString()),
    (r, t) => cell(r, t.tool + ' (' + t.era + ')'),
    (r, t) => cell(r, t.status + (t.statusMessage ? ' · ' + t.statusMessage : ''), t.status === 'input_required' ? 'waiting' : t.status === 'completed' ? 'accept' : t.status === 'working' ? '' : 'error'),
    (r, t) => cell(r, t.questions.join(' · ')),
    (r, t) => { const pre = document.createElement('pre'); pre.textContent = Object.keys(t.answers).length ? JSON.stringify(t.answers, null, 1) : ''; r.insertCell().append(pre) },
    (r, t) => cell(r, t.ms + ' ms'),
    (r, t) => cell(r, t.id, 'muted'),
  ], 'No tasks. A tool with execution: { taskSupport } runs as one when a client asks.')
}
refresh()
setInterval(refresh, 2000)
`

function table(id: string, headings: string[]): string {
  return `<table><thead><tr>${headings.map(h => `<th>${h}</th>`).join('')}</tr></thead><tbody id="${id}"></tbody></table>`
}

/**
 * The page's HTML. `nonce` allows its one inline script under the page's CSP.
 *
 * @example
 * ```ts
 * setHeader(event, 'content-security-policy', devtoolsPolicy(nonce))
 * return renderDevtoolsPage(nonce)
 * ```
 */
export function renderDevtoolsPage(nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>MCP elicitation</title><style>${STYLE}</style></head>
<body>
<h1>MCP</h1><div id="status" class="muted">Loading…</div>
<h2>Recent elicitations</h2>
${table('elicitations', ['Time', 'Era', 'Asked by', 'Mode', 'Message', 'Fields / URL', 'Outcome', 'Took', 'Answer'])}
<h2>Tasks</h2>
${table('tasks', ['Created', 'Tool', 'Status', 'Waiting for', 'Answers', 'Took', 'Id'])}
<h2>Tools</h2>${table('tools', ['Name', 'Description', 'Arguments', 'File'])}
<h2>Resources</h2>${table('resources', ['Name', 'URI', 'Description', 'File'])}
<h2>Prompts</h2>${table('prompts', ['Name', 'Description', 'Arguments', 'File'])}
<script nonce="${nonce}">${SCRIPT}</script>
</body></html>`
}

/** The page's Content-Security-Policy: its own script and data only, framed by its own origin only. */
export function devtoolsPolicy(nonce: string): string {
  return `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'self'`
}
