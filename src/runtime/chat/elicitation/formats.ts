import type { McpStringFormat } from './fields'

/**
 * Checks of the four string formats the MCP spec allows in a form, as JSON Schema defines them
 * (RFC 5321 mailbox, RFC 3986 URI, RFC 3339 full-date and date-time), kept small and strict.
 */

const EMAIL = /^[^\s@"<>()[\],;:\\]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/

function isDate(value: string): boolean {
  const match = DATE.exec(value)
  if (!match) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (month < 1 || month > 12 || day < 1) return false
  // Day 0 of the next month is the last day of this one (UTC, so no time-zone surprises).
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate()
}

function isDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value)
  if (!match || !isDate(match[1] ?? '')) return false
  const [hour, minute, second] = [Number(match[2]), Number(match[3]), Number(match[4])]
  // 60 seconds: RFC 3339 allows a leap second.
  if (hour > 23 || minute > 59 || second > 60) return false
  return match[5] === undefined || (Number(match[6]) <= 23 && Number(match[7]) <= 59)
}

function isUri(value: string): boolean {
  if (!SCHEME.test(value) || /\s/.test(value)) return false
  try {
    new URL(value)
    return true
  }
  catch {
    return false
  }
}

/**
 * Whether `value` is a valid instance of `format`.
 *
 * @example
 * ```ts
 * matchesFormat('date', '2026-02-29') // false: not a leap year
 * matchesFormat('date-time', '2026-03-01T09:30:00Z') // true
 * ```
 */
export function matchesFormat(format: McpStringFormat, value: string): boolean {
  switch (format) {
    case 'email': return EMAIL.test(value)
    case 'uri': return isUri(value)
    case 'date': return isDate(value)
    case 'date-time': return isDateTime(value)
  }
}

/** The message shown when a value does not match its format. */
export const FORMAT_MESSAGES: Record<McpStringFormat, string> = {
  'email': 'Enter a valid email address, like name@example.com.',
  'uri': 'Enter a full URL, like https://example.com.',
  'date': 'Enter a valid date (YYYY-MM-DD).',
  'date-time': 'Enter a valid date and time.',
}
