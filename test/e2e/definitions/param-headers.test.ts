import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { modernBody, modernHeaders, readJsonRpc } from '../../utils/raw'

// SEP-2243 over real HTTP: the basic fixture's `deploy` tool declares region, replicas and
// canary as x-mcp-header arguments (Zod .meta), and every 2026-07-28 tools/call is checked.
let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('basic')
})
afterAll(async () => {
  await app?.stop()
})

/** A 2026-07-28 tools/call of `deploy` with these arguments and these Mcp-Param-* headers. */
async function deploy(args: Record<string, unknown>, params: Record<string, string>) {
  const body = modernBody('tools/call', { name: 'deploy', arguments: args }, { id: 41 })
  const response = await fetch(app.url, { method: 'POST', headers: { ...modernHeaders('tools/call', 'deploy'), ...params }, body: JSON.stringify(body) })
  return { status: response.status, message: await readJsonRpc(response) }
}

const base64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`

describe('Mcp-Param-* headers (SEP-2243), 2026-07-28', () => {
  it('lists the declarations as written', async () => {
    const client = await connectLegacy(app.url)
    const { tools } = await client.listTools()
    expect(tools.find(tool => tool.name === 'deploy')?.inputSchema.properties).toMatchObject({ region: { 'x-mcp-header': 'Region' }, replicas: { 'x-mcp-header': 'Replicas' }, canary: { 'x-mcp-header': 'Canary' } })
    await client.close()
  })

  it('serves a call whose headers agree with the body: plain, Base64, numbers and booleans as clients write them', async () => {
    const accepted: [Record<string, unknown>, Record<string, string>, string][] = [
      [{ region: 'eu-west', replicas: 2 }, { 'mcp-param-region': 'eu-west', 'mcp-param-replicas': '2' }, 'deployed 2 to eu-west'],
      [{ region: 'zürich', replicas: 3, canary: true }, { 'mcp-param-region': base64('zürich'), 'mcp-param-replicas': '3', 'mcp-param-canary': 'true' }, 'deployed 3 to zürich (canary)'],
      // A value that only looks like the sentinel is literal.
      [{ region: '=?base64?SGVsbG8=', replicas: 1 }, { 'mcp-param-region': '=?base64?SGVsbG8=', 'mcp-param-replicas': '1' }, 'deployed 1 to =?base64?SGVsbG8='],
      // No value in the body (canary left out): its header is not needed, and not looked at.
      [{ region: 'eu-west', replicas: 2 }, { 'mcp-param-region': 'eu-west', 'mcp-param-replicas': '2', 'mcp-param-canary': 'nonsense' }, 'deployed 2 to eu-west'],
    ]
    for (const [args, headers, text] of accepted) {
      const { status, message } = await deploy(args, headers)
      expect(status, JSON.stringify(headers)).toBe(200)
      expect(textOf(message.result)).toBe(text)
    }
  })

  it('refuses with 400 and -32020, naming the header: a mismatch, a bad encoding, raw non-ASCII, a missing header', async () => {
    const refused: [Record<string, unknown>, Record<string, string>, string, RegExp][] = [
      [{ region: 'eu-west', replicas: 2 }, { 'mcp-param-region': 'us-east', 'mcp-param-replicas': '2' }, 'Mcp-Param-Region', /the Mcp-Param-Region header says "us-east" but the body carries region="eu-west"/],
      [{ region: 'eu-west', replicas: 2 }, { 'mcp-param-region': 'eu-west', 'mcp-param-replicas': '3' }, 'Mcp-Param-Replicas', /says "3" but the body carries replicas=2/],
      [{ region: 'Hello', replicas: 2 }, { 'mcp-param-region': '=?base64?SGVsbG8?=', 'mcp-param-replicas': '2' }, 'Mcp-Param-Region', /the Mcp-Param-Region header is not a valid value/],
      [{ region: 'Hello', replicas: 2 }, { 'mcp-param-region': '=?base64?SGVs!!!bG8=?=', 'mcp-param-replicas': '2' }, 'Mcp-Param-Region', /not a valid value/],
      [{ region: 'zürich', replicas: 2 }, { 'mcp-param-region': 'zürich', 'mcp-param-replicas': '2' }, 'Mcp-Param-Region', /not a valid value: send printable ASCII as it is, and anything else as =\?base64\?/],
      [{ region: 'eu-west', replicas: 2 }, { 'mcp-param-replicas': '2' }, 'Mcp-Param-Region', /the body carries region="eu-west" but the Mcp-Param-Region header is absent/],
      [{ region: 'eu-west', replicas: 2, canary: false }, { 'mcp-param-region': 'eu-west', 'mcp-param-replicas': '2', 'mcp-param-canary': 'true' }, 'Mcp-Param-Canary', /says "true" but the body carries canary=false/],
    ]
    for (const [args, headers, header, problem] of refused) {
      const { status, message } = await deploy(args, headers)
      expect(status, JSON.stringify(headers)).toBe(400)
      expect(message).toMatchObject({ id: 41, error: { code: -32020, data: { header } } })
      expect(message.error?.message).toMatch(/^Bad Request: the request headers and body disagree: /)
      expect(message.error?.message).toMatch(problem)
    }
    // The server serves on.
    expect((await deploy({ region: 'eu-west', replicas: 2 }, { 'mcp-param-region': 'eu-west', 'mcp-param-replicas': '2' })).status).toBe(200)
  })

  it('the v2 SDK Client mirrors the arguments itself, so its calls pass (Base64 for what is not plain ASCII)', async () => {
    const client = await connectModern(app.url)
    expect(textOf(await client.callTool({ name: 'deploy', arguments: { region: 'zürich', replicas: 4, canary: true } }))).toBe('deployed 4 to zürich (canary)')
    await client.close()
  })

  it('leaves legacy sessions alone: the headers are a 2026-07-28 feature', async () => {
    const client = await connectLegacy(app.url)
    expect(textOf(await client.callTool({ name: 'deploy', arguments: { region: 'eu-west', replicas: 2 } }))).toBe('deployed 2 to eu-west')
    await client.close()
  })
})
