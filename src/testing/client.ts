import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import type { CallToolResult, FetchLike } from '@modelcontextprotocol/client'
import { answerMcpElicitationAs } from './person'
import type { McpReceivedElicitation, McpScriptedPerson } from './person'

/** Which protocol era the test client speaks. */
export type McpTestEra = 'legacy' | 'modern'

export interface McpTestClientOptions {
  era: McpTestEra
  /** Answers elicitations. Without it the client declares no elicitation capability. */
  person?: McpScriptedPerson
  /** Elicitation modes to declare when `person` is given (default both). */
  modes?: ('form' | 'url')[]
  /** Extra HTTP headers on every request, e.g. `authorization`. */
  headers?: Record<string, string>
}

/** One elicitation the client received during a call, with the modern round it came in. */
export interface McpRecordedElicitation {
  /** 1 for the first HTTP round of the call; legacy calls have one round. */
  round: number
  request: McpReceivedElicitation
}

/** What `callTool()` resolves with: the result, its text, and everything asked on the way. */
export interface McpTestCall {
  result: CallToolResult
  /** The text items of the result, joined. */
  text: string
  elicitations: McpRecordedElicitation[]
  /** HTTP rounds the call took (modern: 1 + one per `input_required`). */
  rounds: number
}

export interface McpTestClient {
  era: McpTestEra
  client: Client
  callTool: (name: string, args?: Record<string, unknown>) => Promise<McpTestCall>
  close: () => Promise<void>
}

function textOf(result: CallToolResult): string {
  return result.content.map(item => (item.type === 'text' ? item.text : '')).join('')
}

function isToolsCall(body: RequestInit['body']): boolean {
  return typeof body === 'string' && body.includes('"method":"tools/call"')
}

/**
 * Connects a real MCP client (the official v2 SDK `Client`) to your app, in the era you choose,
 * with a scripted person answering elicitations. Records every elicitation and how many HTTP
 * rounds each call took, so a test can check the exact wire schema and the modern retries.
 *
 * @example
 * ```ts
 * const mcp = await connectMcpTestClient(new URL('http://127.0.0.1:3000/mcp'), { era: 'modern', person: { fields: { channel: 'beta' } } })
 * const call = await mcp.callTool('create_release', { name: 'v1' })
 * expect(call.text).toBe('Created v1 on beta (notify=true)')
 * expect(call.elicitations[0].request.requestedSchema).toMatchObject({ properties: { channel: { enum: ['stable', 'beta', 'canary'] } } })
 * await mcp.close()
 * ```
 */
export async function connectMcpTestClient(url: URL, options: McpTestClientOptions): Promise<McpTestClient> {
  const modes = options.modes ?? ['form', 'url']
  const capabilities = options.person ? { elicitation: Object.fromEntries(modes.map(mode => [mode, {}])) } : {}
  const client = new Client(
    { name: 'nuxt-mcp-elicitation-testing', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: options.era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } },
  )
  let rounds = 0
  let recorded: McpRecordedElicitation[] = []
  const person = options.person
  if (person) {
    client.setRequestHandler('elicitation/create', async (request) => {
      const params: McpReceivedElicitation = { ...request.params }
      recorded.push({ round: Math.max(rounds, 1), request: params })
      return answerMcpElicitationAs(person, params)
    })
  }
  const countingFetch: FetchLike = (input, init) => {
    if (isToolsCall(init?.body)) rounds += 1
    return fetch(input, init)
  }
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: countingFetch, requestInit: { headers: options.headers ?? {} } }))
  return {
    era: options.era,
    client,
    async callTool(name, args = {}) {
      rounds = 0
      recorded = []
      const result = await client.callTool({ name, arguments: args })
      return { result, text: textOf(result), elicitations: recorded, rounds: Math.max(rounds, 1) }
    },
    close: () => client.close(),
  }
}

/**
 * Runs `test` once per era, each with its own client: the same assertions must hold for legacy
 * sessions and modern stateless clients.
 *
 * @example
 * ```ts
 * await forEachMcpEra(url, { person: { fields: { confirm: true } } }, async (mcp) => {
 *   expect((await mcp.callTool('delete_project', { project: 'demo' })).text).toBe('Deleted demo.')
 * })
 * ```
 */
export async function forEachMcpEra(url: URL, options: Omit<McpTestClientOptions, 'era'>, test: (client: McpTestClient) => Promise<void>): Promise<void> {
  for (const era of ['legacy', 'modern'] as const) {
    const mcp = await connectMcpTestClient(url, { ...options, era })
    try {
      await test(mcp)
    }
    finally {
      await mcp.close()
    }
  }
}
