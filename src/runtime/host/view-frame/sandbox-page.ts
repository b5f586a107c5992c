/**
 * The sandbox proxy page of MCP Apps (the spec's double iframe): served on an origin other than
 * the app's, framed by the chat page. It says it is ready, takes the view's HTML from the page
 * (`ui/notifications/sandbox-resource-ready`), runs it in an inner `srcdoc` frame with no origin
 * of its own and the resource's CSP (a `<meta>` put before anything of the view's), and relays
 * messages between the two. It listens only to the page whose origin its URL names.
 *
 * The policy is a `<meta>`, not a header: the view arrives by `postMessage` into a `srcdoc` frame,
 * which has no response of its own and inherits this page's policy, so a header here would bind
 * every view at once and could not carry each resource's own domains.
 */
/**
 * A view's leading doctype, as a browser reads the start of a document: only HTML's five
 * whitespace characters, then `<!doctype …>` (which the first `>` ends). The sandbox page puts the
 * policy right after it, else first. It skips no comment: a browser ends one at `<!-->` or
 * `--!>`, so a script after those would run before a policy placed past them. Nor JavaScript's
 * `\s` (no-break space, U+FEFF, `\v`…): HTML reads those as text, which opens `<body>`, where a
 * CSP `<meta>` is ignored. A view with a comment before its doctype renders in quirks mode.
 *
 * @example
 * ```ts
 * LEADING_DOCTYPE.exec('\n<!doctype html><p>hi</p>')?.[0] // '\n<!doctype html>'
 * LEADING_DOCTYPE.exec('<!--><script>…</script><!doctype html>') // null: the policy goes first
 * ```
 */
export const LEADING_DOCTYPE = /^[\t\n\f\r ]*<!doctype[^>]*>/i

const SCRIPT = `(() => {
  const host = new URLSearchParams(location.search).get('host')
  if (!host || window.parent === window) return
  const domains = list => (Array.isArray(list) ? list : []).filter(d => typeof d === 'string' && /^[a-z][a-z0-9+.-]*:\\/\\/[^\\s;,'"]+$|^[*\\w.-]+$/i.test(d)).join(' ')
  const policy = (csp = {}) => {
    const res = domains(csp.resourceDomains)
    return ["default-src 'none'", "script-src 'unsafe-inline' " + res, "style-src 'unsafe-inline' " + res, 'img-src data: blob: ' + res, 'font-src data: ' + res, 'media-src data: blob: ' + res,
      'connect-src ' + (domains(csp.connectDomains) || "'none'"), 'frame-src ' + (domains(csp.frameDomains) || "'none'"), 'base-uri ' + (domains(csp.baseUriDomains) || "'none'"), "form-action 'none'"].join('; ')
  }
  const allow = (permissions = {}) => ['camera', 'microphone', 'geolocation'].filter(p => permissions[p]).concat(permissions.clipboardWrite ? ['clipboard-write'] : []).join('; ')
  let inner
  window.addEventListener('message', (event) => {
    if (event.source === window.parent) {
      if (event.origin !== host) return
      const message = event.data
      if (message && message.method === 'ui/notifications/sandbox-resource-ready' && !inner) {
        const params = message.params || {}
        inner = document.createElement('iframe')
        inner.setAttribute('sandbox', 'allow-scripts allow-forms')
        inner.setAttribute('allow', allow(params.permissions))
        const meta = '<meta http-equiv="Content-Security-Policy" content="' + policy(params.csp).replace(/"/g, '&quot;') + '">'
        const html = String(params.html || '')
        // The policy before anything of the view's, whatever its HTML: right after a leading
        // doctype (kept first, or the view would render in quirks mode), else at the very start.
        // The parser puts the meta in the head it opens, so it binds all that follows; a match
        // of "<head" further in could be a <header>, or come after a <script>. (LEADING_DOCTYPE
        // says why it skips nothing but HTML whitespace.)
        const lead = ${LEADING_DOCTYPE}.exec(html)
        inner.srcdoc = lead ? lead[0] + meta + html.slice(lead[0].length) : meta + html
        document.body.appendChild(inner)
        return
      }
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(message, '*')
    }
    else if (inner && event.source === inner.contentWindow) {
      window.parent.postMessage(event.data, host)
    }
  })
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, host)
})()`

/**
 * The sandbox proxy page's HTML.
 *
 * @example
 * ```ts
 * setResponseHeader(event, 'content-type', 'text/html; charset=utf-8')
 * return SANDBOX_PAGE
 * ```
 */
export const SANDBOX_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>MCP App sandbox</title><style>html,body{margin:0;height:100%;overflow:hidden}iframe{border:0;width:100%;height:100%;display:block}</style></head>
<body><script>${SCRIPT}</script></body>
</html>
`
