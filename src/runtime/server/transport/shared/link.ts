import type { JSONRPCMessage } from '@modelcontextprotocol/server'
import { completeLocalUrlElicitation, relayUrlCompletions } from '../../elicitation/url-completion'
import type { NodeSessionTransport, SessionRouting } from '../streams/legacy-transport'
import { logLost, unavailableResponse } from './sessions'
import { admitSharedSession } from './admission'
import { broadcastSurely, deliverTo } from './delivery'
import { deliverToGetHolder } from './get-delivery'
import { broadcastAcknowledged, takeOnce } from './acknowledged'
import type { Acknowledgements } from './acknowledged'
import { forwardAnswer, notePush } from './task-answers'
import type { AdmittedSession } from './admission'
import type { SessionEnvelope, SessionRecord, SharedSessionDirectory } from './sessions'
import type { SessionUpdate } from './envelopes'
import { SharedStreamLog } from './streams'
import { RemoteResumes } from './remote-resume'
import { instanceOfStream } from '../streams/journal'
import { installSessionValuesStore } from '../../mcp/server/session-values'
import { createSharedSessionValues } from './session-values'
import type { SessionCaps } from '../http/session-caps'
import { createUrlCompletionRelay } from './url-relay'
import { relaySubscriptions } from '../../mcp/server/subscriptions'
import { confirmSubscriptions, createSubscriptionRelay, dropSharedSubscriptions } from './subscription-relay'

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
  /** The tagged messages this instance sent whose acknowledgements it awaits (answers, GET-stream questions, settings), by tag. */
  private readonly applied: Acknowledgements = new Map()
  /** The tagged messages from other instances taken here lately (an answer, a question for the GET stream held here). */
  private readonly taken = new Set<string>()
  private streams?: { log: SharedStreamLog, remote: RemoteResumes, stopBeat: () => void }

  /**
   * Listens for the envelopes sent to this instance, and relays URL completions, once connected.
   * `transportOf` finds the session a resumed stream belongs to, if this instance holds it;
   * `tagOf` is how the server's log names a session (its tag, never its id).
   */
  constructor(private readonly route: string, directory: Promise<SharedSessionDirectory>, receive: (envelope: SessionUpdate) => void, private readonly transportOf: (sessionId: string) => NodeSessionTransport | undefined, private readonly tagOf: (sessionId: string) => string) {
    this.ready = directory.then((connected) => {
      const log = new SharedStreamLog(connected.shared)
      this.streams = { log, remote: new RemoteResumes(connected, log), stopBeat: log.beat() }
      // Not awaited: while Redis is away the subscriptions wait for it, and the requests that can
      // be served meanwhile must not.
      connected.listen(envelope => this.dispatch(connected, envelope, receive)).catch(logLost)
      relayUrlCompletions(route, createUrlCompletionRelay(connected, completeLocalUrlElicitation))
      relaySubscriptions(route, createSubscriptionRelay(connected))
      installSessionValuesStore(route, createSharedSessionValues(connected))
      return connected
    })
    // A failed connection is reported by each request that needs it (a 503); not unhandled here.
    this.ready.catch(() => {})
  }

  /** Serves the envelopes about resumed streams and the acknowledgements; hands the others to the sessions. */
  private dispatch(directory: SharedSessionDirectory, envelope: SessionEnvelope, receive: (envelope: SessionUpdate) => void): void {
    if (envelope.kind === 'stream-event' || envelope.kind === 'stream-end' || envelope.kind === 'stream-ack') return this.streams?.remote.receive(envelope)
    if (envelope.kind === 'resume-dropped') return this.transportOf(envelope.sessionId)?.posts.remoteDropped(envelope.streamId, envelope.tag)
    if (envelope.kind === 'applied') return this.applied.get(envelope.tag)?.()
    if ((envelope.kind === 'stream' || envelope.kind === 'response') && envelope.from !== undefined && envelope.tag !== undefined) {
      const { from, tag } = envelope
      // A question for the GET stream is taken once kept here; an answer once heard (the session
      // holding its question is here, or nowhere any more).
      const take = envelope.kind === 'stream'
        ? () => this.transportOf(envelope.sessionId)?.writeToStream(envelope.message, true) ?? false
        : () => {
            receive(envelope)
            return true
          }
      if (takeOnce(this.taken, tag, take)) void directory.sendTo(from, { kind: 'applied', tag }).catch(logLost)
      return
    }
    if (envelope.kind === 'notification' && envelope.from !== undefined && envelope.tag !== undefined && envelope.from !== directory.instanceId) {
      receive(envelope)
      return void directory.sendTo(envelope.from, { kind: 'applied', tag: envelope.tag }).catch(logLost)
    }
    if (envelope.kind !== 'resume') return receive(envelope)
    const { to, tag } = envelope
    const send = (message: SessionEnvelope) => void deliverTo(directory, to, message)
    const target = {
      tag,
      deliver: (event: { seq: number, message: JSONRPCMessage }) => send({ kind: 'stream-event', tag, seq: event.seq, message: event.message }),
      end: () => send({ kind: 'stream-end', tag }),
    }
    send({ kind: 'stream-ack', tag })
    if (!this.transportOf(envelope.sessionId)?.posts.resumeFor(envelope.streamId, envelope.after, target)) target.end()
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
      forward: (instanceId, message) => void forwardAnswer(directory, this.applied, id, instanceId, message),
      notePush: (requestId, note) => void notePush(directory, id, requestId, note).catch(logLost),
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
      toHolder: (message, keepHere) => void deliverToGetHolder({ directory, acknowledgements: this.applied, sessionId: id, sessionTag: () => this.tagOf(id), message, keepHere, holderOf: async () => await this.streams?.log.holder(id) }),
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
    this.streams?.stopBeat()
    this.streams?.remote.closeAll()
    relayUrlCompletions(this.route, undefined)
    relaySubscriptions(this.route, undefined)
    installSessionValuesStore(this.route, undefined)
  }
}
