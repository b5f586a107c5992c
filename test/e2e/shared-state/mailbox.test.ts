import { describe, expect, it, vi } from 'vitest'
import { MailRefusal, defineMailKind, mailboxOf } from '../../../src/runtime/server/cluster/mailbox'
import { useCuttableRedis } from '../../utils/cluster'
import { until } from '../../utils/until'

// The mailbox between instances on a real redis-server: a letter waits in the inbox of an
// instance that is not listening, is taken once however often it is read, is acknowledged when
// asked, and one the receiver cannot read is refused naming its kind and field.
const cuttable = useCuttableRedis({ prefix: 'mailbox-test:', route: '/mcp' })
const connect = (through?: 'direct' | 'cut') => cuttable().connect(through)

const NOTE = defineMailKind<{ text: string }>('note', body => typeof body.text === 'string' ? { text: body.text } : new MailRefusal('text', 'is not a string'))

describe('the mailbox between instances', () => {
  it('hands a letter to a listening instance, acknowledged when asked', async () => {
    const [sender, receiver] = [mailboxOf(await connect()), mailboxOf(await connect())]
    const heard: string[] = []
    receiver.receive(NOTE, ({ text }, from) => void heard.push(`${text} from ${from}`))
    await Promise.all([sender.listening, receiver.listening])
    const tag = sender.newTag()
    expect(await sender.send(receiver.instanceId, NOTE, { text: 'one' }, { acknowledge: true, tag })).toEqual({ outcome: 'acknowledged' })
    expect(heard).toEqual([`one from ${sender.instanceId}`])
    // Sent again under its tag (as after an acknowledgement that came too late): acknowledged
    // again, taken once.
    expect(await sender.send(receiver.instanceId, NOTE, { text: 'one' }, { acknowledge: true, tag })).toEqual({ outcome: 'acknowledged' })
    expect(heard).toEqual([`one from ${sender.instanceId}`])
    // An acknowledgement is a publish on the sender's channel, not a letter in its inbox.
    expect(await sender.shared.list(`inbox:${sender.instanceId}`)).toEqual([])
    expect(await sender.send(receiver.instanceId, NOTE, { text: 'two' })).toEqual({ outcome: 'heard' })
    await until(() => heard.length === 2, 'the second letter')
  })

  it('keeps a letter for an instance whose connection is down, read once it is back; taken once per tag', async () => {
    const sender = mailboxOf(await connect())
    const receiver = mailboxOf(await connect('cut'))
    const heard: string[] = []
    receiver.receive(NOTE, ({ text }) => void heard.push(text))
    await Promise.all([sender.listening, receiver.listening])
    cuttable().proxy.block()
    const tag = sender.newTag()
    // Sent twice under one tag (as a push sent again after a lost reply would be).
    expect(await sender.send(receiver.instanceId, NOTE, { text: 'while down' }, { tag })).toEqual({ outcome: 'kept' })
    expect(await sender.send(receiver.instanceId, NOTE, { text: 'while down' }, { tag })).toEqual({ outcome: 'kept' })
    cuttable().proxy.restore()
    await until(() => heard.length > 0, 'the letter read after the reconnection', 10_000)
    await new Promise(resolve => setTimeout(resolve, 300))
    expect(heard).toEqual(['while down'])
  })

  it('says gone for an instance without a heartbeat, and the letter waits in its inbox', async () => {
    const sender = mailboxOf(await connect())
    expect(await sender.send('never-was', NOTE, { text: 'for nobody' })).toEqual({ outcome: 'gone' })
    expect(await sender.isGone('never-was')).toBe(true)
    expect(await sender.isGone(sender.instanceId)).toBe(false)
    expect((await sender.shared.list('inbox:never-was')).length).toBe(1)
  })

  it('refuses a letter it cannot read, naming its kind and field', async () => {
    const [sender, receiver] = [mailboxOf(await connect()), mailboxOf(await connect())]
    const heard: string[] = []
    receiver.receive(NOTE, ({ text }) => void heard.push(text))
    await Promise.all([sender.listening, receiver.listening])
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const BROKEN = defineMailKind<{ text: number }>('note', () => ({ text: 1 }))
      await sender.send(receiver.instanceId, BROKEN, { text: 42 })
      await until(() => errors.mock.calls.some(call => String(call[0]).includes('kind "note"')), 'the refusal logged')
      expect(String(errors.mock.calls.find(call => String(call[0]).includes('kind "note"'))?.[0])).toMatch(/its text is not a string \(kind "note"\)/)
      expect(heard).toEqual([])
    }
    finally {
      errors.mockRestore()
    }
  })
})
