import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { StreamJournal } from '../../../../src/runtime/server/transport/streams/journal'
import { JournalBudget } from '../../../../src/runtime/server/transport/streams/journal-budget'

// The budgets over resumable streams keep running totals (each journal tells them of every event
// kept or shed) instead of summing every journal on every event: after any sequence of events,
// finishes, releases and fits, each total is the sum of what its journals hold, and a fit leaves
// a budget within its limit unless every journal it may take from is down to its last event.

type Step =
  | { kind: 'open', session: number }
  | { kind: 'record', stream: number, size: number, ping: boolean }
  | { kind: 'finish', stream: number }
  | { kind: 'release', stream: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('open' as const), session: fc.nat(3) }),
  fc.record({ kind: fc.constant('record' as const), stream: fc.nat(40), size: fc.nat(3000), ping: fc.boolean() }),
  fc.record({ kind: fc.constant('finish' as const), stream: fc.nat(40) }),
  fc.record({ kind: fc.constant('release' as const), stream: fc.nat(40) }),
)

interface Held { journal: StreamJournal, session: number }

function sum(journals: Iterable<StreamJournal>): number {
  let total = 0
  for (const journal of journals) total += journal.size
  return total
}

describe('a journal budget', () => {
  it('keeps running totals equal to the sums of what its journals hold, after any operations', () => {
    fc.assert(fc.property(fc.array(step, { maxLength: 300 }), (steps) => {
      const process = new JournalBudget(40_000, 'oldest')
      const sessions = Array.from({ length: 4 }, () => new JournalBudget(15_000, 'own', process))
      const opened: Held[] = []
      const held = new Set<Held>()
      const release = (entry: Held) => {
        held.delete(entry)
        sessions[entry.session]!.release(entry.journal)
      }
      for (const next of steps) {
        if (next.kind === 'open') {
          const entry = { journal: new StreamJournal(`a.s${opened.length + 1}`, [1]), session: next.session }
          opened.push(entry)
          held.add(entry)
          sessions[next.session]!.hold(entry.journal, () => release(entry))
          continue
        }
        const entry = opened[next.stream % Math.max(opened.length, 1)]
        if (!entry) continue
        if (next.kind === 'record') {
          const message = next.ping
            ? { jsonrpc: '2.0' as const, method: 'notifications/progress', params: { progressToken: 1, progress: 1, message: 'p'.repeat(next.size) } }
            : { jsonrpc: '2.0' as const, id: 'q', method: 'elicitation/create', params: { message: 'q'.repeat(next.size) } }
          entry.journal.record(message)
          if (held.has(entry)) sessions[entry.session]!.fit(entry.journal)
        }
        if (next.kind === 'finish') sessions[entry.session]!.finish(entry.journal)
        if (next.kind === 'release') release(entry)
        const all = [...held]
        expect(process.size).toBe(sum(all.map(item => item.journal)))
        for (const [index, session] of sessions.entries()) expect(session.size).toBe(sum(all.filter(item => item.session === index).map(item => item.journal)))
        // Within the limit, or nothing left to take: every journal held is down to its last event.
        if (process.size > process.limit) expect(all.every(item => item.journal.after(0).length <= 1)).toBe(true)
      }
    }), { numRuns: 300 })
  })

  it('stops counting a journal it released: its later events count nowhere', () => {
    const process = new JournalBudget(1_000_000, 'oldest')
    const journal = new StreamJournal('a.s1', [1])
    process.hold(journal, () => {})
    journal.record({ jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(100) } })
    expect(process.size).toBe(journal.size)
    process.release(journal)
    journal.record({ jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(100) } })
    expect(process.size).toBe(0)
  })
})
