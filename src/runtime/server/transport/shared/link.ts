import type { JSONRPCMessage } from '@modelcontextprotocol/server'
import { completeLocalUrlElicitation, relayUrlCompletions } from '../../elicitation/url-completion'
import type { NodeSessionTransport, SessionRouting } from '../streams/legacy-transport'
import { logLost, unavailableResponse } from './sessions'
import { admitSharedSession } from './admission'
import { broadcastAcknowledged, broadcastSurely } from './broadcast'
import type { Acknowledgements } from './broadcast'
import { deliverToGetHolder } from './get-delivery'
import { keepForTakeover, notePush } from '../../tasks/store/answers'
import type { AdmittedSession } from './admission'
import type { SessionEnvelope, SessionRecord, SharedSessionDirectory } from './sessions'
import type { SessionUpdate } from './envelopes'
import type { MailOutcome } from '../../cluster/mailbox'
import { SharedStreamLog } from './streams'
import { RemoteResumes } from './remote-resume'
import { instanceOfStream } from '../streams/journal'
import { installSessionValuesStore } from '../../mcp/server/session-values'
import { createSharedSessionValues } from './session-values'
import type { SessionCaps } from '../http/session-caps'
import { createUrlCompletionRelay } from './url-relay'
import { relaySubscriptions } from '../../mcp/server/subscriptions'
import { confirmSubscriptions, createSubscriptionRelay, dropSharedSubscriptions } from './subscription-relay'

/** Logs a letter that Redis could not take (the mailbox gave up after its deadline). */
function logUnreachable(sent: MailOutcome): void {
  if (sent.outcome === 'unreachable') console.error(`[nuxt-mcp-elicitation] A message between instances was lost: ${sent.reason}`)
}

/**
 * Hands the client's answer to the instance that sent the request it answers, through its inbox
 * (cluster/mailbox.ts), asking it to say it heard it. When that instance does not say so (its
 * connection is coming back, or it died with the question) and the request was a task's question,
 * the answer is also kept for the task's takeover (tasks/answers.ts): an instance that comes back
 * reads its inbox, and the kept copy is read only when its instance is taken over.
 *
 * @example
 * ```ts
 * void forwardAnswer(directory, sessionId, '4w6t6w4q', { jsonrpc: '2.0', id: '4w6t6w4q.7', result: { action: 'accept' } })
 * ```
 */
export async function forwardAnswer(directory: SharedSessionDirectory, sessionId: string, instanceId: string, message: JSONRPCMessage): Promise<void> {
  const sent = await directory.sendTo(instanceId, { kind: 'response', sessionId, message }, { acknowledge: true })
  // Not acknowledged: it may have died after Redis counted its listener (a killed instance's
  // connection lingers a moment), and its letter would then be read by nobody.
  if (sent.outcome !== 'acknowledged') await keepForTakeover(directory.shared, sessionId, message).catch(logLost)
  if (sent.outcome === 'unreachable') console.error(`[nuxt-mcp-elicitation] An answer for instance ${instanceId} was not delivered: ${sent.reason}. The call waiting for it ends with its own timeout.`)
}

/** The id of a replayed `logging/setLevel`: its answer goes nowhere. */
const REPLAYED_LEVEL_ID = 'nuxt-mcp-replayed-level'

/**
 * One process's link to the shared session directory (`NUXT_MCP_REDIS_URL`), as the legacy
 * sessions use it: every call answers with the 503 that says why when Redis cannot be had, and
 * what needs no answer (a touch, a lease, a message to another instance) never waits.
 *
 * @example
 * ```ts
 * const link = new SharedSessionLink('/mcp', directory, envelope => deliver(envelope), id => transports.get(id), id => sessionTagOf(secret, id))
 * const record = await link.load(sessionId)
 * ```
 */
export class SharedSessionLink {
  private readonly ready: Promise<SharedSessionDirectory>
  private requests = 0
  /** The broadcast settings whose acknowledgements this instance awaits, by tag. */
  private readonly applied: Acknowledgements = new Map()
  private streams?: { log: SharedStreamLog, remote: RemoteResumes, stopMailbox: () => void }

  /**
   * Listens for the envelopes sent to this instance, and relays URL completions, once connected.
   * `transportOf` finds the session a resumed stream belongs to, if this instance holds it;
   * `tagOf` is how the server's log names a session (its tag, never its id).
   */
  constructor(private readonly route: string, directory: Promise<SharedSessionDirectory>, receive: (envelope: SessionUpdate) => void, private readonly transportOf: (sessionId: string) => NodeSessionTransport | undefined, private readonly tagOf: (sessionId: string) => string) {
    this.ready = directory.then((connected) => {
      const log = new SharedStreamLog(connected.shared)
      // The mailbox keeps this instance's heartbeat while it is open (cluster/mailbox.ts).
      this.streams = { log, remote: new RemoteResumes(connected, log), stopMailbox: () => connected.mailbox.close() }
      // Not awaited: while Redis is away the subscriptions wait for it, and the requests that can
      // be served meanwhile must not.
      connected.listen(envelope => this.hearBroadcast(connected, envelope, receive), (envelope, from) => this.take(connected, envelope, from, receive)).catch(logLost)
      relayUrlCompletions(route, createUrlCompletionRelay(connected, completeLocalUrlElicitation))
      relaySubscriptions(route, createSubscriptionRelay(connected))
      installSessionValuesStore(route, createSharedSessionValues(connected))
      return connected
    })
    // A failed connection is reported by each request that needs it (a 503); not unhandled here.
    this.ready.catch(() => {})
  }

  /** Serves a broadcast: a notification each holder applies (and says so to its sender), the others to the sessions. */
  private hearBroadcast(directory: SharedSessionDirectory, envelope: SessionEnvelope, receive: (envelope: SessionUpdate) => void): void {
    if (envelope.kind === 'notification' && envelope.from !== undefined && envelope.tag !== undefined) {
      if (envelope.from === directory.instanceId) return
      receive(envelope)
      return void directory.sendTo(envelope.from, { kind: 'applied', tag: envelope.tag }).then(logUnreachable)
    }
    if (envelope.kind === 'notification' || envelope.kind === 'stream' || envelope.kind === 'get-held' || envelope.kind === 'closed') receive(envelope)
  }

  /**
   * Takes a letter sent to this instance (the mailbox takes each tag once and acknowledges it when
   * asked): resumed streams and acknowledgements are served here, the rest handed to the sessions.
   * `false` when it was not taken (a question for a GET stream this instance does not hold).
   */
  private take(directory: SharedSessionDirectory, envelope: SessionEnvelope, from: string, receive: (envelope: SessionUpdate) => void): boolean {
    if (envelope.kind === 'stream-event' || envelope.kind === 'stream-end' || envelope.kind === 'stream-ack') {
      this.streams?.remote.receive(envelope)
      return true
    }
    if (envelope.kind === 'resume-dropped') {
      this.transportOf(envelope.sessionId)?.posts.remoteDropped(envelope.streamId, envelope.tag)
      return true
    }
    if (envelope.kind === 'applied') {
      this.applied.get(envelope.tag)?.()
      return true
    }
    // A question for the GET stream is taken once kept here.
    if (envelope.kind === 'stream') return this.transportOf(envelope.sessionId)?.writeToStream(envelope.message, true) ?? false
    if (envelope.kind !== 'resume') {
      receive(envelope)
      return true
    }
    const { to, tag } = envelope
    const send = (message: SessionEnvelope) => void directory.sendTo(to, message).then(logUnreachable)
    const target = {
      tag,
      deliver: (event: { seq: number, message: JSONRPCMessage }) => send({ kind: 'stream-event', tag, seq: event.seq, message: event.message }),
      end: () => send({ kind: 'stream-end', tag }),
    }
    send({ kind: 'stream-ack', tag })
    if (!this.transportOf(envelope.sessionId)?.posts.resumeFor(envelope.streamId, envelope.after, target)) target.end()
    return true
  }

  /** The directory, or the 503 saying why it cannot be had. */
  async directory(): Promise<SharedSessionDirectory | Response> {
    try {
      return await this.ready
    }
    catch (error) {
      return unavailableResponse(error)
    }
  }

  /** Runs `step` on the directory; a failure becomes the 503 that says why. */
  private async use<T>(step: (directory: SharedSessionDirectory) => Promise<T>): Promise<T | Response> {
    const directory = await this.directory()
    if (directory instanceof Response) return directory
    try {
      return await step(directory)
    }
    catch (error) {
      return unavailableResponse(error)
    }
  }

  /** Admits session `id` of `owner` under the caps, counted across all instances ({@link admitSharedSession}). */
  async admit(id: string, owner: string, caps: SessionCaps, activeHere: (id: string) => boolean, end: (id: string) => Promise<unknown>): Promise<Response | AdmittedSession> {
    const directory = await this.directory()
    if (directory instanceof Response) return directory
    return admitSharedSession(directory, id, owner, caps, activeHere, end)
  }

  /** Writes a new session's record; a 503 when it cannot be written. */
  async share(id: string, record: SessionRecord): Promise<Response | undefined> {
    const saved = await this.use(directory => directory.save(id, record))
    return saved instanceof Response ? saved : undefined
  }

  /** A session's record; `undefined` when there is none (unknown or expired). */
  load(id: string): Promise<SessionRecord | undefined | Response> {
    return this.use(directory => directory.load(id))
  }

  /** What a session set since it opened, to replay where it is set up: its logging level. */
  async settingsOf(id: string): Promise<JSONRPCMessage[] | Response> {
    const level = await this.use(directory => directory.loggingLevel(id))
    if (level instanceof Response) return level
    return level === undefined ? [] : [{ jsonrpc: '2.0', id: REPLAYED_LEVEL_ID, method: 'logging/setLevel', params: { level } }]
  }

  /** How a session's transport reaches the other instances. */
  routing(directory: SharedSessionDirectory, id: string): SessionRouting {
    return {
      instanceId: directory.instanceId,
      // An answer (or an error) to a request another instance sent: the call there waits for it.
      forward: (instanceId, message) => void forwardAnswer(directory, id, instanceId, message),
      notePush: (requestId, note) => void notePush(directory.shared, id, requestId, note).catch(logLost),
      broadcast: async (message) => {
        // Kept too, for the instances that set the session up later; answered once passed on (or
        // failed: the level is kept for later instances either way), never held up.
        if ('method' in message && message.method === 'logging/setLevel' && typeof message.params?.level === 'string') {
          await directory.keepLoggingLevel(id, message.params.level).catch(logLost)
          await broadcastAcknowledged(directory, this.applied, { kind: 'notification', sessionId: id, message })
          return
        }
        // A cancellation: the call it stops runs on some instance, which waits for it.
        await broadcastSurely(directory, { kind: 'notification', sessionId: id, message })
      },
      toStream: message => void directory.broadcast({ kind: 'stream', sessionId: id, message }).catch(logLost),
      toHolder: (message, keepHere) => void deliverToGetHolder({ directory, sessionId: id, sessionTag: () => this.tagOf(id), message, keepHere, holderOf: async () => await this.streams?.log.holder(id) }),
      ...(this.streams && {
        journals: this.streams.log.sink(id),
        resume: (streamId, seq, res, headers) => {
          if (instanceOfStream(streamId) === directory.instanceId) return false
          this.streams?.remote.start(id, streamId, seq, res, headers)
          return true
        },
        replay: async streamId => (await this.streams?.log.read(id, streamId).catch(logLost))?.events ?? [],
        holdGet: streamId => void this.streams?.log.hold(id, streamId)
          .then(() => directory.broadcast({ kind: 'get-held', sessionId: id, streamId }))
          .catch(logLost),
        getHolder: async () => await this.streams?.log.holder(id).catch(logLost) ?? undefined,
      }),
    }
  }

  /** Keeps the record alive and ranks the session as just used, without waiting; `gone` when the record expired meanwhile. */
  touch(id: string, owner: string, gone: () => void): void {
    void this.ready.then(async (directory) => {
      if (!await directory.touch(id, owner)) return gone()
      await confirmSubscriptions(directory, id)
    }).catch(logLost)
  }

  /** Marks the session busy while one long request runs; returns what ends the mark. */
  lease(id: string): () => void {
    const tag = String(++this.requests)
    let end: (() => void) | undefined
    let ended = false
    void this.ready.then((directory) => {
      if (!ended) end = directory.leaseWhileBusy(id, tag)
    }, () => {})
    return () => {
      ended = true
      end?.()
    }
  }

  /**
   * Removes a session's record (or a refused one's), and with `everywhere` tells every instance.
   * `false` when the record could not be removed (Redis away): the session may live on elsewhere.
   */
  async remove(id: string, owner: string | undefined, everywhere: boolean): Promise<boolean> {
    const directory = await this.directory()
    if (directory instanceof Response) return false
    try {
      await directory.remove(id, owner)
    }
    catch (error) {
      logLost(error)
      return false
    }
    await dropSharedSubscriptions(directory, id).catch(logLost)
    if (everywhere) await broadcastSurely(directory, { kind: 'closed', sessionId: id })
    return true
  }

  close(): void {
    this.streams?.stopMailbox()
    this.streams?.remote.closeAll()
    relayUrlCompletions(this.route, undefined)
    relaySubscriptions(this.route, undefined)
    installSessionValuesStore(this.route, undefined)
  }
}
