import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server'
import { openSseStream } from '../streams/sse'
import type { SseStream } from '../streams/sse'
import type { ResponseSink } from '../http/response-sink'
import { RESUME_RETRY_MS, answers, eventIdOf, instanceOfStream } from '../streams/journal'
import type { SessionEnvelope } from './envelopes'
import type { SharedSessionDirectory } from './sessions'
import { logLost } from './sessions'
import { DEAD_AFTER_MISSING_MS } from './streams'
import type { SharedStreamLog } from './streams'

/** How often a resumed stream checks that the instance running its requests is still alive. */
const CHECK_EVERY_MS = 1000

/** One stream a client resumed here while another instance runs (or ran) its requests. */
interface Resumed {
  sessionId: string
  streamId: string
  stream: SseStream
  /** The last event the client has. */
  last: number
  watch?: ReturnType<typeof setInterval>
  /** Whether the owner took the resume request. */
  acknowledged: boolean
}

/**
 * How long before a resume request that Redis could not take is put in the owner's inbox again,
 * for as long as the stream is open (a dead owner never takes it: the heartbeat watch answers for
 * it then). One that is in the inbox waits there for the owner: it is not sent again.
 */
const ACK_WAIT_MS = 2000

/** The answer a request gets when the instance that ran it died before answering. */
function lostAnswer(id: RequestId, owner: string): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    id,
    error: { code: -32603, message: `The server instance that ran this request (${owner}) stopped before it answered. Nothing of its answer was kept; send the request again.` },
  }
}

/**
 * The streams clients resumed on this instance (`GET` + `Last-Event-ID`) that another instance
 * opened. The other instance, asked through the shared state, sends the events the client
 * missed and the live ones; should it be dead (its heartbeat lapsed), this instance replays the
 * answers it kept and answers every request still open with an error saying so, so that no
 * client waits for an answer that cannot come.
 *
 * @example
 * ```ts
 * const resumes = new RemoteResumes(directory, log)
 * resumes.start(sessionId, 'abc.s1', 3, res, { 'mcp-session-id': sessionId })
 * ```
 */
export class RemoteResumes {
  private readonly open = new Map<string, Resumed>()
  private count = 0

  constructor(private readonly directory: SharedSessionDirectory, private readonly log: SharedStreamLog) {}

  /** Serves the resumed stream `streamId` on `res`, from after event `seq`. */
  start(sessionId: string, streamId: string, seq: number, res: ResponseSink, headers: Record<string, string>): void {
    const owner = instanceOfStream(streamId)
    const tag = `${this.directory.instanceId}.r${++this.count}`
    const resumed: Resumed = {
      sessionId,
      streamId,
      last: seq,
      acknowledged: false,
      stream: openSseStream(res, {
        headers,
        flushNow: true,
        onClose: () => {
          clearInterval(resumed.watch)
          if (this.open.delete(tag)) void this.directory.sendTo(owner, { kind: 'resume-dropped', sessionId, streamId, tag }).catch(logLost)
        },
      }),
    }
    // Primed with the id the client resumed from: should the connection drop again before any
    // event (this instance dies too), the SDK clients resume from the last id seen on *this*
    // connection, and without one they open a plain GET and the call waits out its timeout.
    resumed.stream.prime(eventIdOf(streamId, seq), RESUME_RETRY_MS)
    this.open.set(tag, resumed)
    const ask = () => {
      if (this.open.get(tag) !== resumed || resumed.acknowledged) return
      void this.directory.sendTo(owner, { kind: 'resume', sessionId, streamId, after: resumed.last, to: this.directory.instanceId, tag }).then((sent) => {
        if (sent.outcome === 'unreachable') setTimeout(ask, ACK_WAIT_MS).unref?.()
      })
    }
    ask()
    let checking = false
    let missingSince: number | undefined
    resumed.watch = setInterval(() => {
      if (checking) return
      checking = true
      void this.log.isAlive(owner)
        .then((alive) => {
          if (alive) return void (missingSince = undefined)
          missingSince ??= Date.now()
          if (Date.now() - missingSince >= DEAD_AFTER_MISSING_MS) return this.answerForGone(tag, owner)
        })
        .catch(logLost)
        .finally(() => { checking = false })
    }, CHECK_EVERY_MS)
    resumed.watch.unref?.()
  }

  /** An event or the end of a stream resumed here, from the instance that runs it. */
  receive(envelope: Extract<SessionEnvelope, { kind: 'stream-event' | 'stream-end' | 'stream-ack' }>): void {
    const resumed = this.open.get(envelope.tag)
    if (!resumed) return
    resumed.acknowledged = true
    if (envelope.kind === 'stream-ack') return
    if (envelope.kind === 'stream-end') return this.finish(envelope.tag)
    if (envelope.seq <= resumed.last) return
    resumed.last = envelope.seq
    resumed.stream.write(envelope.message, eventIdOf(resumed.streamId, envelope.seq))
  }

  /** The owner is dead: what it kept of its answers goes out, and every request still open gets its error. */
  private async answerForGone(tag: string, owner: string): Promise<void> {
    const resumed = this.open.get(tag)
    if (!resumed) return
    const kept = await this.log.read(resumed.sessionId, resumed.streamId)
    if (this.open.get(tag) !== resumed) return
    const requests = kept?.requests ?? []
    const answered = kept?.events.filter(event => answers(event.message, requests)) ?? []
    for (const event of answered) {
      if (event.seq <= resumed.last) continue
      resumed.stream.write(event.message, eventIdOf(resumed.streamId, event.seq))
      resumed.last = event.seq
    }
    // Numbered after the kept events and kept with them: a client that resumes once more (the v1
    // Client does after an error) finds them answered instead of being told again.
    let next = Math.max(resumed.last, ...(kept?.events.map(event => event.seq) ?? []))
    const lost = requests
      .filter(id => !answered.some(event => answers(event.message, [id])))
      .map(id => ({ seq: ++next, message: lostAnswer(id, owner) }))
    if (lost.length > 0) await this.log.keep(resumed.sessionId, resumed.streamId, lost)
    for (const event of lost) resumed.stream.write(event.message, eventIdOf(resumed.streamId, event.seq))
    resumed.last = next
    this.finish(tag)
  }

  private finish(tag: string): void {
    const resumed = this.open.get(tag)
    if (!resumed) return
    this.open.delete(tag)
    clearInterval(resumed.watch)
    resumed.stream.end()
  }

  /** Ends every resumed stream (the endpoint closes), telling their owners, whose requests then wait out the grace. */
  closeAll(): void {
    for (const [tag, { sessionId, streamId }] of this.open) {
      void this.directory.sendTo(instanceOfStream(streamId), { kind: 'resume-dropped', sessionId, streamId, tag }).catch(logLost)
      this.finish(tag)
    }
  }
}
