/** The header the page's "Clear" sends: no cross-site form can, nor a cross-site script without a preflight. */
export const CLEAR_HEADER = 'x-mcp-devtools'

/**
 * The page's one script (plain browser JavaScript, run under a nonce). It polls `<page>.json`
 * every 2 s and renders with `textContent` only, so nothing a tool description or an answer
 * contains can run as markup. Each endpoint is a section: its URL, Inspector link and install
 * links (Cursor, VS Code, Claude Code, with copy buttons), its questions, calls and tasks, then
 * its definitions. The endpoint picker and the text filter narrow what is shown; "Clear" forgets the recorded calls and questions.
 */
export const PAGE_SCRIPT = `
const dataUrl = location.pathname.replace(/\\/$/, '') + '.json'
const byId = id => document.getElementById(id)
let data
function el(tag, text, className) {
  const node = document.createElement(tag)
  if (text !== undefined) node.textContent = text
  if (className) node.className = className
  return node
}
function cell(row, label, text, className) {
  const td = row.insertCell()
  td.dataset.label = label
  td.textContent = text ?? ''
  if (className) td.className = className
  return td
}
function json(row, label, value, issues) {
  const td = cell(row, label, '')
  td.append(el('pre', value === undefined ? '' : JSON.stringify(value, null, 1)))
  for (const issue of issues ?? []) td.append(el('div', issue, 'issue'))
}
const time = at => new Date(at).toLocaleTimeString()
const kindOf = outcome => outcome.split(/[ ,]/)[0]
function table(name, heading, headings, items, columns, empty) {
  const box = el('div', undefined, 'list ' + name)
  box.append(el('h3', heading + ' (' + items.length + ')'))
  const t = el('table')
  const head = t.createTHead().insertRow()
  for (const h of headings) head.append(el('th', h))
  const body = t.createTBody()
  if (items.length === 0) {
    const row = body.insertRow()
    row.className = 'empty'
    cell(row, '', empty).colSpan = headings.length
  }
  for (const item of items) {
    const row = body.insertRow()
    columns.forEach((column, i) => column(row, item, headings[i]))
  }
  box.append(t)
  return box
}
// Copies through the Clipboard API, else (an iframe without clipboard-write) by selecting the
// text and the old copy command; says which happened, or asks the person to copy it themselves.
async function copyText(button, text) {
  let copied = false
  try { await navigator.clipboard.writeText(text); copied = true }
  catch {
    const area = el('textarea')
    area.value = text
    document.body.append(area)
    area.select()
    try { copied = document.execCommand('copy') } catch {}
    area.remove()
  }
  button.textContent = copied ? 'Copied' : 'Select and copy it'
  setTimeout(() => { button.textContent = 'Copy' }, 1500)
}
function installRow(list, key, label, text) {
  const row = el('div', undefined, 'install-row')
  row.dataset.install = key
  const button = el('button', 'Copy', 'copy')
  button.type = 'button'
  button.addEventListener('click', () => copyText(button, text))
  row.append(el('span', label, 'install-label'), el('pre', text, 'install-value'), button)
  list.append(row)
}
function installLink(text, href, className) {
  const link = el('a', text, className)
  link.href = href
  return link
}
// The links and commands that add the endpoint to Cursor, VS Code and Claude Code. The list is
// built once per endpoint and kept across refreshes (with its open state), so a copy button is
// never replaced under the pointer.
const installBoxes = new Map()
function renderInstall(endpoint) {
  const key = JSON.stringify([endpoint.route, endpoint.install, endpoint.auth])
  const kept = installBoxes.get(key)
  if (kept) return kept
  const { install } = endpoint
  const box = el('div', undefined, 'install')
  const links = el('div', 'Add to ', 'install-links')
  links.append(
    installLink('Cursor', install.cursor.link, 'install-cursor'), ' · ',
    installLink('VS Code', install.vscode.link, 'install-vscode'), ' · ',
    installLink('VS Code Insiders', install.vscode.insiders, 'install-vscode-insiders'), ' · as ',
    el('code', install.name, 'install-name'),
  )
  const note = endpoint.auth
    ? 'OAuth is on here: the client finds the sign-in from the endpoint and asks you to log in on first use' + (endpoint.auth.scopes.length ? ' (scopes: ' + endpoint.auth.scopes.join(' ') + ')' : '') + '. These carry the URL only, never a token.'
    : 'No sign-in here: the URL is all a client needs.'
  const details = el('details')
  details.append(el('summary', 'Commands and config files'))
  installRow(details, 'claude-command', 'Claude Code', install.claude.command)
  installRow(details, 'vscode-command', 'VS Code (user profile)', install.vscode.command)
  installRow(details, 'cursor-link', 'Cursor link', install.cursor.link)
  installRow(details, 'cursor-web', 'Cursor, through cursor.com', install.cursor.web)
  installRow(details, 'vscode-link', 'VS Code link', install.vscode.link)
  installRow(details, 'vscode-insiders-link', 'VS Code Insiders link', install.vscode.insiders)
  installRow(details, 'claude-config', '.mcp.json (Claude Code, project)', install.claude.config)
  installRow(details, 'cursor-config', '.cursor/mcp.json', install.cursor.config)
  installRow(details, 'vscode-config', '.vscode/mcp.json', install.vscode.config)
  box.append(links, el('div', note, 'install-auth muted'), details)
  installBoxes.set(key, box)
  return box
}
function renderEndpoint(endpoint) {
  const section = el('section', undefined, 'endpoint')
  section.dataset.route = endpoint.route
  const title = el('h2')
  title.append(el('span', endpoint.server.name + ' ' + endpoint.server.version + ' '), el('code', endpoint.url, 'url'))
  const inspector = el('div', 'MCP Inspector: ', 'inspector-line')
  const link = el('a', 'open', 'inspector')
  link.href = endpoint.inspector.link
  link.target = '_blank'
  link.rel = 'noopener'
  link.title = 'When the Inspector already runs (its 2.x asks for the command instead)'
  inspector.append(link, ' · or start it on this endpoint: ', el('code', endpoint.inspector.command, 'inspector-command'))
  section.append(title, inspector, renderInstall(endpoint))
  const mine = list => list.filter(item => item.endpoint === endpoint.route)
  section.append(table('questions', 'Questions', ['Time', 'Era', 'Asked by', 'Mode', 'Message', 'Fields / URL', 'Outcome', 'Took', 'Answer'], mine(data.questions), [
    (r, e, l) => cell(r, l, time(e.at)),
    (r, e, l) => cell(r, l, e.era),
    (r, e, l) => cell(r, l, e.target + (e.method ? ' (' + e.method + ')' : '')),
    (r, e, l) => cell(r, l, e.mode),
    (r, e, l) => cell(r, l, e.message),
    (r, e, l) => cell(r, l, e.url ?? (e.fields ?? []).join(', ')),
    (r, e, l) => cell(r, l, e.outcome, kindOf(e.outcome)),
    (r, e, l) => cell(r, l, e.ms === undefined ? '' : e.ms + ' ms'),
    (r, e, l) => json(r, l, e.content, e.issues),
  ], 'Nothing asked yet. Run a tool that calls useMcpElicitation() from a client.'))
  section.append(table('calls', 'Calls', ['Time', 'Era', 'Call', 'Outcome', 'Took'], mine(data.calls), [
    (r, c, l) => cell(r, l, time(c.at)),
    (r, c, l) => cell(r, l, c.era),
    (r, c, l) => cell(r, l, c.method + ' ' + c.name),
    (r, c, l) => cell(r, l, c.outcome, kindOf(c.outcome)),
    (r, c, l) => cell(r, l, c.ms + ' ms'),
  ], 'No calls yet.'))
  section.append(table('tasks', 'Tasks', ['Created', 'Tool', 'Status', 'Waiting for', 'Answers', 'Took', 'Id'], endpoint.tasks, [
    (r, t, l) => cell(r, l, time(t.at)),
    (r, t, l) => cell(r, l, t.tool + ' (' + t.era + ')'),
    (r, t, l) => cell(r, l, t.status + (t.statusMessage ? ' · ' + t.statusMessage : ''), t.status === 'input_required' ? 'waiting' : t.status === 'completed' ? 'accept' : t.status === 'working' ? '' : 'error'),
    (r, t, l) => cell(r, l, t.questions.join(' · ')),
    (r, t, l) => json(r, l, Object.keys(t.answers).length ? t.answers : undefined),
    (r, t, l) => cell(r, l, t.ms + ' ms'),
    (r, t, l) => cell(r, l, t.id, 'muted'),
  ], 'No tasks. A tool with execution: { taskSupport } runs as one when a client asks.'))
  section.append(table('tools', 'Tools', ['Name', 'Description', 'Arguments', 'File'], endpoint.tools, [
    (r, t, l) => cell(r, l, t.name + (t.view ? ' (view ' + t.view + ')' : '')),
    (r, t, l) => cell(r, l, t.description),
    (r, t, l) => cell(r, l, t.fields.join(', ')),
    (r, t, l) => cell(r, l, t.file, 'muted'),
  ], 'No tools.'))
  section.append(table('resources', 'Resources', ['Name', 'URI', 'Description', 'File'], endpoint.resources, [
    (r, t, l) => cell(r, l, t.name),
    (r, t, l) => cell(r, l, t.uri),
    (r, t, l) => cell(r, l, t.description),
    (r, t, l) => cell(r, l, t.file, 'muted'),
  ], 'No resources.'))
  section.append(table('prompts', 'Prompts', ['Name', 'Description', 'Arguments', 'File'], endpoint.prompts, [
    (r, t, l) => cell(r, l, t.name),
    (r, t, l) => cell(r, l, t.description),
    (r, t, l) => cell(r, l, t.arguments.join(', ')),
    (r, t, l) => cell(r, l, t.file, 'muted'),
  ], 'No prompts.'))
  if (endpoint.views.length > 0) {
    section.append(table('views', 'Views (MCP Apps)', ['Name', 'URI', 'Shown by', 'File'], endpoint.views, [
      (r, v, l) => cell(r, l, v.name),
      (r, v, l) => cell(r, l, v.uri),
      (r, v, l) => cell(r, l, v.tools.join(', ')),
      (r, v, l) => cell(r, l, v.file, 'muted'),
    ], ''))
  }
  return section
}
function applyFilters() {
  const route = byId('endpoint').value
  const text = byId('filter').value.trim().toLowerCase()
  for (const section of document.querySelectorAll('section.endpoint')) {
    section.hidden = route !== '' && section.dataset.route !== route
    for (const row of section.querySelectorAll('tbody tr:not(.empty)')) row.hidden = text !== '' && !row.textContent.toLowerCase().includes(text)
  }
}
function renderPicker() {
  const picker = byId('endpoint')
  const routes = data.endpoints.map(endpoint => endpoint.route)
  if ([...picker.options].slice(1).map(option => option.value).join(' ') === routes.join(' ')) return
  const chosen = picker.value
  picker.replaceChildren(el('option', 'Every endpoint'))
  picker.options[0].value = ''
  for (const route of routes) picker.append(el('option', route))
  picker.value = routes.includes(chosen) ? chosen : ''
}
async function refresh() {
  try { data = await (await fetch(dataUrl, { cache: 'no-store' })).json() }
  catch (error) { byId('status').textContent = 'Dev server unreachable: ' + error.message; return }
  byId('status').textContent = data.endpoints.length + ' endpoint' + (data.endpoints.length === 1 ? '' : 's') + ' · refreshed ' + new Date().toLocaleTimeString()
  renderPicker()
  byId('endpoints').replaceChildren(...data.endpoints.map(renderEndpoint))
  applyFilters()
}
byId('endpoint').addEventListener('change', applyFilters)
byId('filter').addEventListener('input', applyFilters)
byId('clear').addEventListener('click', async () => {
  await fetch(dataUrl, { method: 'DELETE', headers: { '${CLEAR_HEADER}': 'clear' } })
  await refresh()
})
refresh()
setInterval(refresh, 2000)
`
