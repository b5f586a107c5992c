// The mailbox between instances: the one way a message meant for ONE instance travels (an answer
// for a waiting question or task, a URL completion, a resume and its events, a task's
// cancellation, a GET-stream hand-over, the host's answered elicitation). It knows nothing of
// MCP: a letter is a kind (with its parser), a JSON body, a tag and its sender.
//
// Each instance has a durable inbox in Redis, `inbox:<instanceId>`: a list that lives
// INBOX_TTL_MS after its last push. A sender pushes a letter once (tried again only while Redis
// cannot take it) and publishes a wake-up on the instance's channel; the receiver reads its inbox
// on every wake-up AND every time its subscriber (re)connects. So a letter for an instance whose
// connections are coming back waits for it, instead of being published to nobody and retried
// until a deadline drops it. A letter carries a tag, and the receiver remembers the tags it took:
// one read twice (a trim lost with the connection, a push that ioredis sent again) is taken once.
// Broadcasts (to every instance) are not letters: see docs/deploy/several-instances.md.
import { isRecord } from '../common/is-record'
import { beat, isAlive } from './liveness'
import type { McpSharedState } from './shared-state'
import { DELIVERY_DEADLINE_MS, tryUntil } from './try-until'

/**
 * How long an inbox lives after its last push: well above the longest outage an instance is
 * expected to come back from (the 30-second cut of the tests), so its letters wait for it; an
 * instance that never comes back leaves an inbox that expires by itself.
 */
export const INBOX_TTL_MS = 5 * 60_000
/** How long a sender waits for a receiver that heard the wake-up to say it took the letter. */
export const ACKNOWLEDGE_WAIT_MS = 1000
/** How many tags of letters taken a receiver remembers, so that a letter read again is not taken twice. */
const REMEMBERED_TAGS = 512

/**
 * How one letter fared:
 * - `acknowledged`: the receiver said it took it (only when asked to);
 * - `heard`: it is in the receiver's inbox, and the receiver was listening when woken;
 * - `kept`: it is in the receiver's inbox, which the receiver reads when its connection is back
 *   (it is alive by its heartbeat, but not listening now);
 * - `gone`: it is in the inbox of an instance whose heartbeat lapsed (`ALIVE_TTL_MS`): read only
 *   should that instance come back;
 * - `unreachable`: Redis could not take it within `DELIVERY_DEADLINE_MS`, `reason` says why.
 *
 * @example
 * ```ts
 * const sent = await mailbox.send(runner, TASK_MAIL, { taskId, kind: 'cancel' })
 * if (sent.outcome === 'unreachable') console.error(sent.reason)
 * ```
 */
export type MailOutcome =
  | { outcome: 'acknowledged' }
  | { outcome: 'heard' }
  | { outcome: 'kept' }
  | { outcome: 'gone' }
  | { outcome: 'unreachable', reason: string }

/**
 * What a parser says of a body it cannot read: which field, and what was wrong with it.
 *
 * @example
 * ```ts
 * return typeof body.taskId === 'string' ? { taskId: body.taskId } : new MailRefusal('taskId', 'is not a string')
 * ```
 */
export class MailRefusal {
  constructor(readonly field: string, readonly problem: string) {}
}

/**
 * One kind of letter: its name on the wire, and its parser, which reads a body back field by
 * field (another version of the app may be mid-deploy) or refuses it naming the field.
 *
 * @example
 * ```ts
 * const PING: MailKind<{ id: string }> = defineMailKind('ping', body => typeof body.id === 'string' ? { id: body.id } : new MailRefusal('id', 'is not a string'))
 * ```
 */
export interface MailKind<T> {
  readonly name: string
  readonly read: (body: Record<string, unknown>) => T | MailRefusal
}

/**
 * Declares a kind of letter with its parser.
 *
 * @example
 * ```ts
 * const URL_DONE = defineMailKind('url-complete', body => typeof body.elicitationId === 'string' ? { elicitationId: body.elicitationId } : new MailRefusal('elicitationId', 'is not a string'))
 * ```
 */
export function defineMailKind<T>(name: string, read: (body: Record<string, unknown>) => T | MailRefusal): MailKind<T> {
  return { name, read }
}

interface Letter { tag: string, kind: string, from: string, acknowledge: boolean, body: Record<string, unknown> }

function inboxKey(instanceId: string): string {
  return `inbox:${instanceId}`
}
function wakeChannel(instanceId: string): string {
  return `mailbox:${instanceId}`
}

/** A letter read back from an inbox, or what is wrong with it. */
function parseLetter(text: string): Letter | MailRefusal {
  let value: unknown
  try {
    value = JSON.parse(text)
  }
  catch {
    return new MailRefusal('(the letter)', 'is not JSON')
  }
  if (!isRecord(value)) return new MailRefusal('(the letter)', 'is not an object')
  for (const field of ['tag', 'kind', 'from'] as const) {
    if (typeof value[field] !== 'string') return new MailRefusal(field, 'is not a string')
  }
  if (!isRecord(value.body)) return new MailRefusal('body', 'is not an object')
  return { tag: String(value.tag), kind: String(value.kind), from: String(value.from), acknowledge: value.acknowledge === true, body: value.body }
}

/** What {@link Mailbox.isGone} publishes: a wake-up that asks nothing to be read. */
const PING = 'ping'
/**
 * An acknowledgement is published on its sender's wake-up channel, `ack:<tag>`, not put in its
 * inbox: only a sender listening right now waits for one (for {@link ACKNOWLEDGE_WAIT_MS}), and
 * one that is not would read it after it stopped waiting. One PUBLISH instead of a letter's push,
 * expiry, publish, read and trim.
 */
const ACK_PREFIX = 'ack:'

const reasonOf = (error: unknown) => error instanceof Error ? error.message : String(error)

/** A letter that could not be read: the kind and the field, for the operator (a version mid-deploy, or a bug). */
function logRefused(kind: string, refusal: MailRefusal): void {
  console.error(`[nuxt-mcp-elicitation] A letter from another instance was refused: its ${refusal.field} ${refusal.problem} (kind "${kind}"). Another version of the app may be mid-deploy; the call waiting for it ends with its own timeout.`)
}

function logLost(what: string, error: unknown): void {
  console.error(`[nuxt-mcp-elicitation] The mailbox between instances ${what}:`, reasonOf(error))
}

/**
 * The receiver's side of a tagged letter: runs `handle` for `tag` unless it ran for it lately,
 * and says whether the letter is taken (`handle` returned `true`, now or before). `handled` holds
 * the tags taken lately, oldest first, {@link REMEMBERED_TAGS} at most.
 *
 * @example
 * ```ts
 * if (takeOnce(handled, letter.tag, () => deliver(letter))) acknowledge(letter)
 * ```
 */
export function takeOnce(handled: Set<string>, tag: string, handle: () => boolean): boolean {
  if (handled.has(tag)) return true
  if (!handle()) return false
  handled.add(tag)
  if (handled.size > REMEMBERED_TAGS) handled.delete(handled.values().next().value!)
  return true
}

interface Receiver { kind: MailKind<unknown>, take: (body: unknown, from: string) => boolean | void }

/**
 * This instance's mailbox over the shared state: it sends letters to one other instance and
 * takes the letters sent to it, each kind by the receiver given for it. One per shared state
 * ({@link mailboxOf}); it keeps this instance's heartbeat while open, which is what `gone` reads.
 *
 * @example
 * ```ts
 * const mailbox = mailboxOf(shared)
 * mailbox.receive(URL_DONE, ({ elicitationId }) => completeHere(elicitationId))
 * const sent = await mailbox.send(owner, URL_DONE, { elicitationId })
 * ```
 */
export class Mailbox {
  private readonly receivers = new Map<string, Receiver>()
  /** The tags of the letters taken lately, oldest first. */
  private readonly taken = new Set<string>()
  /** The acknowledgements this instance waits for, by tag. */
  private readonly awaited = new Map<string, () => void>()
  private reading: Promise<void> | undefined
  private readAgain = false
  private sent = 0
  private stopBeat: (() => void) | undefined
  /** Resolves once this instance listens for its wake-ups (or rejects when it cannot subscribe). */
  readonly listening: Promise<void>

  constructor(readonly shared: McpSharedState) {
    this.stopBeat = beat(shared, error => logLost('could not write this instance\'s heartbeat', error))
    // Read on every wake-up, and each time the subscription takes effect (at first, and after every
    // reconnection): what was pushed while nobody listened is read then.
    this.listening = shared.subscribe(wakeChannel(shared.instanceId), text => this.heard(text), () => this.read())
    this.listening.catch(error => logLost('could not listen', error))
  }

  get instanceId(): string {
    return this.shared.instanceId
  }

  /** A fresh tag for a letter of this instance; give the same one to every copy of one message. */
  newTag(): string {
    return `${this.instanceId}.m${++this.sent}.${crypto.randomUUID().slice(0, 8)}`
  }

  /**
   * Takes letters of `kind` with `take` (one receiver a kind); `take` returns `false` when it did
   * not take the letter (it is not acknowledged, and a copy sent again is offered again).
   */
  receive<T>(kind: MailKind<T>, take: (body: T, from: string) => boolean | void): void {
    this.receivers.set(kind.name, { kind: kind as MailKind<unknown>, take: take as Receiver['take'] })
  }

  /**
   * Puts a letter in instance `to`'s inbox and wakes it (see {@link MailOutcome}); with
   * `acknowledge`, waits {@link ACKNOWLEDGE_WAIT_MS} for a receiver that heard it to say it took it.
   * `tag` keeps one message's copies one (a receiver takes the first it reads).
   */
  async send<T>(to: string, kind: MailKind<T>, body: T, options: { acknowledge?: boolean, tag?: string } = {}): Promise<MailOutcome> {
    const tag = options.tag ?? this.newTag()
    const letter = JSON.stringify({ tag, kind: kind.name, from: this.instanceId, ...(options.acknowledge && { acknowledge: true }), body })
    let acknowledged = () => {}
    const acknowledgement = new Promise<boolean>((resolve) => {
      acknowledged = () => resolve(true)
    })
    if (options.acknowledge) this.awaited.set(tag, acknowledged)
    try {
      let reason = ''
      const attempt = async (step: () => Promise<number | void>) => tryUntil(DELIVERY_DEADLINE_MS, () => step().then(value => value ?? -1, (error: unknown) => {
        reason = reasonOf(error)
        return undefined
      }))
      if (await attempt(() => this.shared.append(inboxKey(to), [letter], INBOX_TTL_MS)) === undefined) return { outcome: 'unreachable', reason: `Redis did not take the letter for instance ${to}: ${reason}` }
      // The letter is in the inbox: a wake-up that reaches nobody only delays it until the
      // receiver's subscriber is back, so it is tried again only while Redis cannot take it.
      const listeners = await attempt(() => this.shared.publish(wakeChannel(to), tag)) ?? 0
      if (listeners <= 0) return await isAlive(this.shared, to).catch(() => true) ? { outcome: 'kept' } : { outcome: 'gone' }
      if (!options.acknowledge) return { outcome: 'heard' }
      let timer: ReturnType<typeof setTimeout> | undefined
      const taken = await Promise.race([acknowledgement, new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), ACKNOWLEDGE_WAIT_MS)
      })])
      clearTimeout(timer)
      return taken ? { outcome: 'acknowledged' } : { outcome: 'heard' }
    }
    finally {
      this.awaited.delete(tag)
    }
  }

  /**
   * Whether instance `instanceId` is gone: nobody listens on its wake-up channel *and* its
   * heartbeat has lapsed. Silence alone is not death: after a Redis restart a live instance's
   * subscriber comes back a moment later than its heartbeat (taking its task over then would run
   * its handler twice at once: the chaos run caught a `once()` step run twice that way).
   */
  async isGone(instanceId: string): Promise<boolean> {
    return await this.shared.publish(wakeChannel(instanceId), PING) === 0 && !await isAlive(this.shared, instanceId)
  }

  /** Stops the heartbeat and taking letters (the endpoint closes); letters still coming wait in the inbox until it expires. */
  close(): void {
    this.stopBeat?.()
    this.stopBeat = undefined
    this.receivers.clear()
    mailboxes.delete(this.shared)
  }

  /** What came on this instance's wake-up channel: a wake-up (read the inbox), an acknowledgement, or a ping. */
  private heard(text: string): void {
    if (text.startsWith(ACK_PREFIX)) this.awaited.get(text.slice(ACK_PREFIX.length))?.()
    else if (text !== PING) this.read()
  }

  /** Reads the inbox, one read at a time: a wake-up during a read reads again after it. */
  private read(): void {
    if (this.reading) {
      this.readAgain = true
      return
    }
    this.reading = this.readInbox().finally(() => {
      this.reading = undefined
      if (this.readAgain) {
        this.readAgain = false
        this.read()
      }
    })
  }

  private async readInbox(): Promise<void> {
    const key = inboxKey(this.instanceId)
    let failure: unknown
    // The commands connection may come back a moment after the subscriber's: tried meanwhile.
    const letters = await tryUntil(DELIVERY_DEADLINE_MS, () => this.shared.list(key).then(list => list, (error: unknown) => {
      failure = error
      return undefined
    }))
    if (!letters) return logLost(`could not read this instance's inbox (its letters wait there, and are read at the next wake-up or reconnection)`, failure)
    if (letters.length === 0) return
    for (const text of letters) this.open(text)
    // Only what was read: letters pushed meanwhile stay. Should the trim be lost, the letters
    // read again are taken once, by their tags.
    await this.shared.shift(key, letters.length).catch(error => logLost('could not trim this instance\'s inbox', error))
  }

  private open(text: string): void {
    const letter = parseLetter(text)
    if (letter instanceof MailRefusal) return logRefused('unknown', letter)
    const receiver = this.receivers.get(letter.kind)
    if (!receiver) return logRefused(letter.kind, new MailRefusal('kind', 'has no receiver on this instance'))
    const taken = takeOnce(this.taken, letter.tag, () => {
      const body = receiver.kind.read(letter.body)
      if (!(body instanceof MailRefusal)) return receiver.take(body, letter.from) !== false
      logRefused(letter.kind, body)
      return false
    })
    // A letter taken before is acknowledged again: its sender asks again when the first
    // acknowledgement did not reach it in time.
    if (taken && letter.acknowledge) void this.shared.publish(wakeChannel(letter.from), `${ACK_PREFIX}${letter.tag}`).catch(error => logLost('could not acknowledge a letter', error))
  }
}

const mailboxes = new WeakMap<McpSharedState, Mailbox>()

/**
 * The mailbox of this instance on `shared`, opened on first use: every part of one endpoint (its
 * sessions, its tasks) shares it, so an instance has one inbox and one heartbeat per endpoint.
 *
 * @example
 * ```ts
 * const mailbox = mailboxOf(shared)
 * ```
 */
export function mailboxOf(shared: McpSharedState): Mailbox {
  let mailbox = mailboxes.get(shared)
  if (!mailbox) {
    mailbox = new Mailbox(shared)
    mailboxes.set(shared, mailbox)
  }
  return mailbox
}
