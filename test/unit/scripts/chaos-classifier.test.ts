import { readdirSync, readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { classifyFailure, FAILURE_KINDS } from '../../../scripts/chaos/workers.mjs'
import { repoRoot } from '../../utils/fixture'

// The chaos run's verdict "every failure is a clear error" must not depend on where a kill lands:
// every message the module can fail a call with has a kind, and only what the module did not
// write itself (a crash in the SDK, a TypeError) stays unclassified.

const SERVER = resolve(repoRoot, 'src/runtime/server')

/** The constructors and functions the module builds its failures with, and which argument is the message. */
const MESSAGE_ARGUMENT: Record<string, number> = {
  ProtocolError: 1,
  McpElicitationError: 1,
  jsonRpcError: 2,
  TaskLimitError: 0,
  McpStoreUnavailableError: 0,
  RequestStateError: 0,
  Error: 0,
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(entry =>
    entry.isDirectory() ? filesUnder(resolve(dir, entry.name)) : entry.name.endsWith('.ts') ? [resolve(dir, entry.name)] : [])
}

/**
 * A message as a client could see it: a file-level constant is read where it is written, and any
 * other `${…}` of a template stands for a value, here `x`.
 */
function sampleOf(node: ts.Expression, constants: Map<string, ts.Expression>): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map(span => `${sampleOf(span.expression, constants) ?? 'x'}${span.literal.text}`).join('')
  if (ts.isIdentifier(node) && constants.has(node.text)) return sampleOf(constants.get(node.text)!, constants)
  return undefined
}

/**
 * `file: message` for every failure message written in src/runtime/server: the message argument
 * of each constructor above, a file-level constant passed as one, and the `message` of a
 * JSON-RPC error object (`{ code, message }`). A message computed at run time (an error relayed
 * from elsewhere) is one of these, written where it was made.
 */
function moduleMessages(): { where: string, message: string }[] {
  const found: { where: string, message: string }[] = []
  for (const file of filesUnder(SERVER)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true)
    const where = relative(SERVER, file)
    // Every `const name = …` of the file, at its top or inside a function: a message is often
    // written into one first (a hint shared by two refusals, a message both thrown and logged).
    const constants = new Map<string, ts.Expression>()
    const collect = (node: ts.Node): void => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) constants.set(node.name.text, node.initializer)
      ts.forEachChild(node, collect)
    }
    collect(source)
    const visit = (node: ts.Node): void => {
      if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && Object.hasOwn(MESSAGE_ARGUMENT, node.expression.text)) {
        const argument = node.arguments?.[MESSAGE_ARGUMENT[node.expression.text]!]
        const message = argument && sampleOf(argument, constants)
        if (message !== undefined) found.push({ where, message })
      }
      if (ts.isObjectLiteralExpression(node) && node.properties.some(property => property.name?.getText(source) === 'code')) {
        for (const property of node.properties) {
          if (ts.isPropertyAssignment(property) && property.name.getText(source) === 'message') {
            const message = sampleOf(property.initializer, constants)
            if (message !== undefined) found.push({ where, message })
          }
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return found
}

/** How the v1 and v2 SDK clients show a JSON-RPC error the server sent. */
const asClientSees = (code: number, message: string) => new Error(`MCP error ${code}: ${message}`)

/** One real failure per kind, as a chaos client reported it (or as the module writes it). */
const EXAMPLES: Record<string, Error | string> = {
  'hang': new Error('call v1-0-12 did not end within 35000 ms'),
  'step-side-effect-failed': 'The chaos counter\'s own Redis command failed: Connection is closed.',
  'step-interrupted': asClientSees(-32603, 'The task\'s step once("count") was running when the instance that ran it stopped: it may or may not have happened, so the task cannot go on. Check its effect, then call the tool again.'),
  'instance-stopped': asClientSees(-32603, 'The server instance that ran this request (i-2) stopped before it answered. Nothing of its answer was kept; send the request again.'),
  'task-limit': asClientSees(-32600, 'This caller already holds 100 tasks, the most allowed (mcp.tasks.maxPerPrincipal = 100).'),
  'session-ended': asClientSees(-32001, 'Session not found: the Mcp-Session-Id "3f1c" is unknown or expired. Send a new initialize request without the header.'),
  'shared-state-unavailable': asClientSees(-32000, 'Service unavailable: legacy sessions are shared through NUXT_MCP_REDIS_URL, and the shared state (NUXT_MCP_REDIS_URL) could not be reached; retry later'),
  'connection-lost': new Error('MCP client request failed', { cause: new TypeError('fetch failed', { cause: new Error('other side closed') }) }),
  'task-ended': asClientSees(-32602, 'Failed to retrieve task: Task not found ("t-1"). It never existed, expired after its ttl, or belongs to another caller.'),
  'elicitation-failed': 'Nobody answered the elicitation within 30000 ms. Pass a longer `timeout` or set `mcp.elicitation.timeoutMs`.',
  'refused': asClientSees(-32000, 'Forbidden: this Mcp-Session-Id was opened by another principal. Initialize a session of your own.'),
  'tool-misuse': 'useMcpElicitation() was called outside an MCP tool, resource or prompt handler.',
  'misconfigured': asClientSees(-32603, 'The MCP endpoint is misconfigured; the server log says what to change.'),
}

describe('the chaos run\'s failure classifier', () => {
  it('has an example of every kind', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual(Object.keys(FAILURE_KINDS).sort())
  })

  it.each(Object.entries(EXAMPLES))('classifies a failure of kind %s as such', (kind, failure) => {
    expect(classifyFailure(failure)).toBe(kind)
  })

  it('gives every failure message the module writes a kind', () => {
    const messages = moduleMessages()
    // The extraction itself still finds what it must: the designed once() refusal among them.
    expect(messages.length).toBeGreaterThan(60)
    expect(messages.some(({ message }) => message.includes('was running when the instance that ran it stopped'))).toBe(true)
    const unclassified = messages.filter(({ message }) => classifyFailure(new Error(message)) === 'unclassified')
    expect(unclassified.map(({ where, message }) => `${where}: ${message.slice(0, 120)}`), 'add a pattern to FAILURE_KINDS in scripts/chaos/workers.mjs').toEqual([])
  })

  it('leaves what the module did not write unclassified, so the invariant can still fail', () => {
    expect(classifyFailure(asClientSees(-32603, 'Cannot read properties of undefined (reading \'answers\')'))).toBe('unclassified')
    expect(classifyFailure(asClientSees(-32603, 'Internal error'))).toBe('unclassified')
    // The module's prefix is no kind by itself: a message is classified by what it says.
    expect(classifyFailure(new Error('[nuxt-mcp-elicitation] Cannot read properties of undefined'))).toBe('unclassified')
  })
})
