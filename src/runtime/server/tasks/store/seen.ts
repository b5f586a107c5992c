/**
 * The tasks whose client has shown it holds them (it asked about them): a legacy task's question
 * is pushed only then, as a client that has not yet read the `tools/call` answer cannot tell which
 * call the question belongs to.
 *
 * @example
 * ```ts
 * await seen.when(record.id, signal) // in the push
 * seen.mark(record.id)               // in tasks/get
 * ```
 */
export class SeenTasks {
  private readonly seen = new Set<string>()
  private readonly waiting = new Map<string, Set<() => void>>()

  /** Notes that the client holds task `id`: questions held for that go out. */
  mark(id: string): void {
    this.seen.add(id)
    for (const wake of this.waiting.get(id) ?? []) wake()
    this.waiting.delete(id)
  }

  /** Resolves once task `id` has been seen; rejects when `signal` aborts first. */
  when(id: string, signal: AbortSignal): Promise<void> {
    if (this.seen.has(id)) return Promise.resolve()
    return new Promise((resolve, reject) => {
      const wake = () => {
        signal.removeEventListener('abort', abort)
        resolve()
      }
      const abort = () => {
        this.waiting.get(id)?.delete(wake)
        reject(signal.reason)
      }
      signal.addEventListener('abort', abort, { once: true })
      const waiting = this.waiting.get(id) ?? new Set()
      waiting.add(wake)
      this.waiting.set(id, waiting)
    })
  }

  /** Forgets task `id` (it expired). */
  forget(id: string): void {
    this.seen.delete(id)
    this.waiting.delete(id)
  }
}
