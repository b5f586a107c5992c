// One chaos worker: a client of one kind, calling `chaos_call` one call after another until the
// run ends, reconnecting after a failure, and writing down what each call asked, got and how it
// ended. Each legacy session a result names is also checked, once, to refuse another principal.
import { connectChaosClient } from './clients.mjs'

/**
 * How a failed call ended, by kind: the first pattern that matches the failure's text wins, so
 * the order matters. `hang` and `unclassified` break the run's invariants; every other kind is a
 * clear error. Every message the module writes under src/runtime/server has a kind here
 * (test/unit/scripts/chaos-classifier.test.ts reads them all from the source), so whichever message a kill
 * happens to cause, the verdict is the same; what stays `unclassified` is what the module did not
 * write itself (a crash inside the SDK, a TypeError).
 */
export const FAILURE_KINDS = {
  'hang': /Request timed out|did not end within/i,
  // The tool's own side effect (its step's Redis command, the fixture's client) failed: the tool
  // says so in its error result. Not the module's doing, and not silent.
  'step-side-effect-failed': /chaos counter's own Redis command failed/i,
  // A task whose instance was killed while its once() step ran: the step may or may not have
  // happened, so the task ends saying so instead of running it again (the designed refusal;
  // whether a kill lands inside a step is up to timing).
  'step-interrupted': /was running when the instance that ran it stopped/i,
  // A call, or a task no instance could continue, whose instance died under it; or a task taken
  // over while its instance was held for gone, whose handler there stops when it comes back.
  'instance-stopped': /stopped before it (answered|ended)|was taken over by another instance/i,
  // The per-caller or global task cap: the fixture keeps tasks 2 minutes so a run stays under
  // it; met, it is a clear refusal, not a fault.
  'task-limit': /most (tasks )?allowed|tasks\.max\w*|page\.maxOpenPerCaller/i,
  'session-ended': /session\b.*\b(not found|ended|expired|unknown|closed)|\b404\b/i,
  'shared-state-unavailable': /shared state|could not be reached|could not be kept for the app's page|Service unavailable|\b503\b/i,
  'connection-lost': /fetch failed|ECONNRESET|ECONNREFUSED|socket hang up|terminated|other side closed|Connection closed|disconnected|\b502\b|Bad Gateway|client closed it/i,
  // A task that ended (cancelled, out of its time to live, the server shutting down) or that its
  // caller can no longer find; a job (a call of a client without tasks) that ended and began
  // again while a call looked for it.
  'task-ended': /The task (ended|ran out|was \w+)|task "[^"]*" (was|has not ended)|Task not found|Cannot cancel task|The server is shutting down|changed hands/i,
  // A question that got no usable answer: none in time, refused, malformed, or a once() step that
  // could not run (its store full or unreachable, or another copy of the round running it).
  'elicitation-failed': /answered the elicitation|refused the elicitation|client's answer|inputResponses\[|question could not reach|question waited|asked a question before its task began|once\("[^"]*"\) (did not run|is still running)|store holds \S+ unexpired/i,
  // A request the module refused at its door or in its handlers, saying why and what to send.
  'refused': /Forbidden|Unauthorized|Bad Request|Unsupported Media Type|Parse error|Method not found|Method \S+ is not (allowed|used)|Method not allowed|Unknown (tool|prompt)|Resource not found|Invalid (arguments|cursor)|Too many|Unknown MCP tools?:|outside the tools chosen by|X-MCP-Tools header cannot be read|speaks MCP|requestState|taskSupport|tasks cannot run here|No skill is served|not a directory resource|Directory URIs have no trailing slash/i,
  // The tool's own code used the module wrongly (a form, a URL, a step): never in a correct fixture,
  // and still a message that names the fix.
  'tool-misuse': /url\(\)|form\(\{ view|question for the app's page, which only tools|Form field|The form|Field "[^"]*" is a multi-select|outside an MCP|outside the module endpoint|Two different questions|not JSON-serialisable|did not declare the|useMcpSession\(\)|not available in a task|Zod shape/i,
  // The app's definitions or configuration are wrong (the server log says what to change), or an
  // instance lacks a tool another one has. Read from what each message says, not from the module's
  // "[nuxt-mcp-elicitation]" prefix: a prefix alone would make any message of the module clear.
  'misconfigured': /misconfigured|is not on this instance|its (inputSchema|arguments|argument "|\w*Schema \(|cache maxAge)|x-mcp-header|NUXT_MCP_|mcp\.auth|Two \w+s are named|mcp:server hook|shows the view "|Worker build|cache: \{ ttlMs|cannot be named in X-MCP-Tools|a skill file in server\/mcp\/skills\/|the build did not bundle/i,
}

/** A failure's message and its causes' (ext-tasks wraps what failed: "MCP client request failed" ← …). */
function failureText(error) {
  const messages = []
  for (let cause = error, depth = 0; cause !== undefined && depth < 6; cause = cause instanceof Error ? cause.cause : undefined, depth++) {
    messages.push(cause instanceof Error ? cause.message : String(cause))
  }
  return messages.join(' ← ')
}

/** The kind of a failure, from its message (the first of {@link FAILURE_KINDS} that matches). */
export function classifyFailure(error) {
  const text = failureText(error)
  return Object.entries(FAILURE_KINDS).find(([, pattern]) => pattern.test(text))?.[0] ?? 'unclassified'
}

function withDeadline(promise, ms, what) {
  let timer
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms) })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/** A request with `sessionId` as another principal: only a refusal (403, or 404 once it ended) keeps sessions apart. */
async function probeOtherPrincipal(url, sessionId, user) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25', 'x-user': `not-${user}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    signal: AbortSignal.timeout(10_000),
  })
  await response.body?.cancel()
  return response.status
}

/** The session a result of `chaos_call` names (a legacy session's; none for 2026-07-28). */
function sessionOf(text) {
  try {
    const session = JSON.parse(text).session
    return typeof session === 'string' ? session : undefined
  }
  catch {
    return undefined
  }
}

/**
 * Runs one worker until `until` (ms since the epoch). Every call is pushed to `calls` as
 * `{ kind, user, call, ok, failure?, message?, at, ms, asked, result? }` (`at`: ms after `zero`); every probe of a session with
 * another principal to `probes` as `{ kind, status }`.
 *
 * @example
 * await runWorker({ kind: 'v1', index: 0, url, root, zero: Date.now(), until: Date.now() + 60_000, deadlineMs: 30_000, calls, probes })
 */
export async function runWorker({ kind, index, url, root, zero, until, deadlineMs, calls, probes }) {
  const user = `user-${kind}-${index}`
  const asked = new Map()
  const onQuestion = message => asked.set(message, (asked.get(message) ?? 0) + 1)
  let client
  let number = 0
  // From the results, not the transports: mcp-remote's session is the bridge's, and only the
  // server sees it.
  const probed = new Set()
  let session
  while (Date.now() < until) {
    if (!client) {
      try {
        client = await withDeadline(connectChaosClient(kind, url, user, onQuestion, root), deadlineMs, 'connect')
      }
      catch {
        // Connecting while an instance or Redis is down may fail; the calls are what is judged.
        await client?.close().catch(() => {})
        client = undefined
        await new Promise(done => setTimeout(done, 250))
        continue
      }
    }
    const call = `${kind}-${index}-${number++}`
    const started = Date.now()
    try {
      const result = await withDeadline(client.call({ call }, deadlineMs), deadlineMs + 5000, `call ${call}`)
      const text = result.content?.map(item => item.text ?? '').join('') ?? ''
      // A tool error (the handler threw: e.g. its once() step could not reach Redis) is a failed call.
      if (result.isError) calls.push({ kind, user, call, session, ok: false, failure: classifyFailure(text), message: text.slice(0, 300), at: started - zero, ms: Date.now() - started, asked })
      else calls.push({ kind, user, call, ok: true, at: started - zero, ms: Date.now() - started, result: text, asked })
      session = result.isError ? session : sessionOf(text) ?? session
      if (session !== undefined && !probed.has(session)) {
        probed.add(session)
        const status = await probeOtherPrincipal(url, session, user).catch(() => undefined)
        // No answer, or a 5xx (an instance or Redis down): it says nothing either way; tried again after the next result.
        if (status === undefined || status >= 500) probed.delete(session)
        else probes.push({ kind, status })
      }
    }
    catch (error) {
      calls.push({ kind, user, call, session, ok: false, failure: classifyFailure(error), message: failureText(error).slice(0, 300), at: started - zero, ms: Date.now() - started, asked })
      const closing = client
      client = undefined
      await withDeadline(closing.close(), 5000, 'close').catch(() => {})
    }
  }
  await client?.close().catch(() => {})
}
