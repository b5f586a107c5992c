import type { McpServerConfig } from '../../common/config'
import { isJSONRPCRequest } from '@modelcontextprotocol/server'
import type { JSONRPCRequest } from '@modelcontextprotocol/server'
import { isRecord } from '../../common/is-record'
import { McpStoreUnavailableError, SHARED_STATE_UNAVAILABLE, logUnavailableDetail } from '../../common/store/store'
import { BROADCAST_CHANNEL } from '../../cluster/shared-state'
import type { McpSharedState } from '../../cluster/shared-state'
import { mailboxOf } from '../../cluster/mailbox'
import type { Mailbox, MailOutcome } from '../../cluster/mailbox'
import { jsonRpcError } from '../http/errors'
import { SESSION_MAIL, parseEnvelope } from './envelopes'
import type { SessionEnvelope } from './envelopes'

export type { SessionEnvelope } from './envelopes'
import type { SessionCaps } from '../http/session-caps'

/** What any instance needs to serve a legacy session it did not open. No secret is in it. */
export interface SessionRecord {
  /** Who opened it: only they may use it. */
  principal?: string
  /** What the per-principal cap counts by. */
  owner: string
  /** The client's `initialize` request, replayed to the SDK server of each instance that serves the session. */
  initialize: JSONRPCRequest
  created: number
}

/**
 * The 503 of a request that needs the shared state when it cannot be had, saying why in words
 * fit for a client (the address and the driver's error go to the server's log).
 */
export function unavailableResponse(error: unknown): Response {
  logUnavailableDetail(error)
  const reason = error instanceof McpStoreUnavailableError ? error.message : SHARED_STATE_UNAVAILABLE
  return jsonRpcError(503, -32000, `Service unavailable: legacy sessions are shared through NUXT_MCP_REDIS_URL, and ${reason.replace(/^\[nuxt-mcp-elicitation\] /, '')}`, { 'retry-after': '5' })
}

/** A message between instances that could not be sent: logged, the request goes on. */
export function logLost(error: unknown): void {
  console.error('[nuxt-mcp-elicitation] A message between instances was lost:', error instanceof Error ? error.message : error)
}

export function recordKey(sessionId: string): string {
  return `session:${sessionId}`
}

/** How long a session record lives when idle sessions are never closed (`sessions.idleTimeoutMs: 0`). */
export const RECORD_TTL_WITHOUT_IDLE_MS = 24 * 60 * 60_000

/** Every open session, ranked by last activity; and each owner's. */
const ALL_SESSIONS = 'sessions'
function ownerKey(owner: string): string {
  return `owner:${owner}`
}
function busyKey(sessionId: string): string {
  return `busy:${sessionId}`
}
function levelKey(sessionId: string): string {
  return `level:${sessionId}`
}
/** The hash of a session's `useMcpSession()` values: kept, touched and removed with its record. */
export function valuesKey(sessionId: string): string {
  return `values:${sessionId}`
}

/** A POST still open after this long marks its session busy for the other instances. */
const BUSY_AFTER_MS = 1000
/** How long a busy mark lasts unless its instance renews it: a killed instance's marks expire. */
const BUSY_LEASE_MS = 15_000
/** The busy mark of a session being opened: no other opening may end it as idle meanwhile. */
const OPENING = 'opening'

function parseRecord(text: string | undefined): SessionRecord | undefined {
  if (text === undefined) return undefined
  const value: unknown = JSON.parse(text)
  if (!isRecord(value) || typeof value.owner !== 'string' || !isJSONRPCRequest(value.initialize) || typeof value.created !== 'number') return undefined
  return {
    ...(typeof value.principal === 'string' && { principal: value.principal }),
    owner: value.owner,
    initialize: value.initialize,
    created: value.created,
  }
}

/**
 * The legacy sessions' directory shared by every instance (with `NUXT_MCP_REDIS_URL`): session
 * records that expire when a session stays idle, and the messages that carry a client's answer
 * or cancellation to the instance that waits for it.
 *
 * @example
 * ```ts
 * const directory = new SharedSessionDirectory(shared, 30 * 60_000)
 * await directory.listen(envelope => deliver(envelope), envelope => deliver(envelope))
 * ```
 */
export class SharedSessionDirectory {
  /** This instance's mailbox (cluster/mailbox.ts): what is meant for one instance goes through it. */
  readonly mailbox: Mailbox

  /** @param ttlMs How long a record lives after the session's last use (the idle timeout). */
  constructor(readonly shared: McpSharedState, readonly ttlMs: number) {
    this.mailbox = mailboxOf(shared)
  }

  get instanceId(): string {
    return this.shared.instanceId
  }

  /** Writes the record and ranks the session among all and among its owner's, as just used. */
  async save(sessionId: string, record: SessionRecord): Promise<void> {
    await this.shared.put(recordKey(sessionId), JSON.stringify(record), this.ttlMs)
    await this.rankUse(sessionId, record.owner)
  }

  /**
   * Ranks a session being opened among all and among `owner`'s, only when neither is at its cap
   * (checked and ranked in one step: instances admitting at once cannot all take the last place),
   * and marks it busy while it opens. Which cap is full otherwise.
   */
  async admit(sessionId: string, owner: string, caps: SessionCaps): Promise<'caller' | 'endpoint' | undefined> {
    const now = Date.now()
    const full = await this.shared.rankWithin([{ key: ownerKey(owner), max: caps.maxPerPrincipal }, { key: ALL_SESSIONS, max: caps.max }], sessionId, now, this.ttlMs, now - this.ttlMs)
    if (full === 0) return 'caller'
    if (full === 1) return 'endpoint'
    await this.shared.rank(busyKey(sessionId), OPENING, now + BUSY_LEASE_MS, BUSY_LEASE_MS)
    return undefined
  }

  /** Ends the busy mark {@link admit} put on a session while it opened. */
  opened(sessionId: string): Promise<void> {
    return this.shared.unrank(busyKey(sessionId), OPENING)
  }

  /** Ranks the session as just used; the rankings themselves expire when nothing is used for a record's lifetime. */
  private async rankUse(sessionId: string, owner: string): Promise<void> {
    const now = Date.now()
    await Promise.all([ALL_SESSIONS, ownerKey(owner)].map(key => this.shared.rank(key, sessionId, now, this.ttlMs)))
  }

  /**
   * The open sessions, least recently used first: all of them and `owner`'s. A session unused
   * for a record's lifetime (the idle timeout) has lost its record, and leaves the rankings here.
   */
  async ranking(owner: string): Promise<{ all: string[], mine: string[] }> {
    const since = Date.now() - this.ttlMs
    const [all, mine] = await Promise.all([this.shared.ranked(ALL_SESSIONS, since), this.shared.ranked(ownerKey(owner), since)])
    return { all, mine }
  }

  /** Whether a request of the session has been in flight for a while, on any live instance. */
  async isBusy(sessionId: string): Promise<boolean> {
    return (await this.shared.ranked(busyKey(sessionId), Date.now())).length > 0
  }

  /**
   * Marks the session busy while one request runs, once it has run for a second (an ordinary
   * request costs no Redis round trip): a lease renewed by this instance, so the mark of a killed
   * instance expires. Returns the function that ends it.
   */
  leaseWhileBusy(sessionId: string, requestTag: string): () => void {
    const member = `${this.instanceId}:${requestTag}`
    let held = false
    let renewal: ReturnType<typeof setInterval> | undefined
    const renew = () => {
      held = true
      void this.shared.rank(busyKey(sessionId), member, Date.now() + BUSY_LEASE_MS, BUSY_LEASE_MS).catch(logLost)
    }
    const start = setTimeout(() => {
      renew()
      renewal = setInterval(renew, BUSY_LEASE_MS / 3)
    }, BUSY_AFTER_MS)
    return () => {
      clearTimeout(start)
      clearInterval(renewal)
      if (held) void this.shared.unrank(busyKey(sessionId), member).catch(logLost)
    }
  }

  async load(sessionId: string): Promise<SessionRecord | undefined> {
    return parseRecord(await this.shared.get(recordKey(sessionId)))
  }

  /** The logging level the session set (`logging/setLevel`), kept for instances that set it up later. */
  keepLoggingLevel(sessionId: string, level: string): Promise<void> {
    return this.shared.put(levelKey(sessionId), level, this.ttlMs)
  }

  loggingLevel(sessionId: string): Promise<string | undefined> {
    return this.shared.get(levelKey(sessionId))
  }

  /** Removes the record, the kept logging level, and the session from the rankings. */
  async remove(sessionId: string, owner?: string): Promise<void> {
    const known = owner ?? (await this.load(sessionId))?.owner
    // The record first: a value set after it is gone is refused (createSharedSessionValues), and
    // one set before is removed with the values next.
    await this.shared.delete(recordKey(sessionId))
    await Promise.all([
      this.shared.delete(levelKey(sessionId)),
      this.shared.delete(valuesKey(sessionId)),
      this.shared.unrank(ALL_SESSIONS, sessionId),
      ...(known === undefined ? [] : [this.shared.unrank(ownerKey(known), sessionId)]),
    ])
  }

  /** Keeps the record for another idle period and ranks the session as just used; `false` when it is gone. */
  async touch(sessionId: string, owner: string): Promise<boolean> {
    const kept = await this.shared.touch(recordKey(sessionId), this.ttlMs)
    if (kept) await Promise.all([this.rankUse(sessionId, owner), this.shared.touch(levelKey(sessionId), this.ttlMs), this.shared.touch(valuesKey(sessionId), this.ttlMs)])
    return kept
  }

  /**
   * Puts `envelope` in instance `instanceId`'s inbox, through the mailbox (see `MailOutcome`);
   * `acknowledge` waits for it to say it took it, `tag` keeps one message's copies one.
   */
  sendTo(instanceId: string, envelope: SessionEnvelope, options?: { acknowledge?: boolean, tag?: string }): Promise<MailOutcome> {
    return this.mailbox.send(instanceId, SESSION_MAIL, envelope, options)
  }

  /** Publishes `envelope` to every instance; resolves with how many listeners got it (this instance's included). */
  broadcast(envelope: SessionEnvelope): Promise<number> {
    return this.shared.publish(BROADCAST_CHANNEL, JSON.stringify(envelope))
  }

  /**
   * Receives the envelopes broadcast to all (`broadcast`), and the letters sent to this instance
   * (`take`, with their sender; `false` when a letter was not taken: it is not acknowledged).
   */
  async listen(broadcast: (envelope: SessionEnvelope) => void, take: (envelope: SessionEnvelope, from: string) => boolean | void): Promise<void> {
    this.mailbox.receive(SESSION_MAIL, take)
    await this.shared.subscribe(BROADCAST_CHANNEL, (text) => {
      const envelope = parseEnvelope(text)
      if (envelope) broadcast(envelope)
    })
    await this.mailbox.listening
  }
}

/**
 * A shared session record lives as long as a session may stay idle, plus the quarter by which
 * its expiry may lag (it is pushed back at most every quarter of the idle timeout); a day when
 * idle sessions are never closed.
 */
export function sharedRecordTtl(config: McpServerConfig): number {
  return config.sessions.idleTimeoutMs > 0 ? config.sessions.idleTimeoutMs * 1.25 : RECORD_TTL_WITHOUT_IDLE_MS
}
