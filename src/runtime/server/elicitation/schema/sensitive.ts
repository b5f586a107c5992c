import { refuseField } from './fields'
import type { McpElicitationError } from '../error'

/**
 * Sensitive-data detection for form fields.
 *
 * The spec says servers MUST NOT request passwords, API keys, tokens or payment data in form mode
 * (a form answer travels through the client and, often, the model's context). Detection is
 * word-aware: text is split into words (camelCase, snake_case, kebab-case, spaces), and a phrase
 * matches whole words only, so "tokenizer" or "secretary" never match.
 */

// Each entry is a phrase of whole words. Joined spellings ("apikey") are listed separately because
// the splitter cannot know where an all-lowercase word breaks.
const PHRASES: readonly (readonly string[])[] = [
  ['password'], ['passwd'], ['passcode'], ['passphrase'], ['pin', 'code'], ['pincode'], ['pin', 'number'],
  ['secret'], ['token'], ['api', 'key'], ['apikey'], ['access', 'key'], ['accesskey'],
  ['private', 'key'], ['privatekey'], ['credential'],
  ['card', 'number'], ['cardnumber'], ['credit', 'card'], ['creditcard'], ['debit', 'card'],
  ['cvv'], ['cvv2'], ['cvc'], ['iban'], ['ssn'], ['social', 'security'],
]

// Joined words that END with one of these are secrets too ("authtoken", "clientsecret",
// "userpassword"); only the ending counts, so "tokenizer" and "secretary" stay clean.
const SECRET_ENDINGS = ['password', 'passwd', 'passcode', 'passphrase', 'secret', 'token', 'apikey', 'credential']

// A word right after the phrase that makes it ABOUT the secret rather than the secret itself:
// "tokenLimit", "passwordLength", "tokenCount" are settings, not secrets.
const QUALIFIERS = new Set(['count', 'limit', 'budget', 'usage', 'length', 'size', 'policy', 'strength', 'expiry', 'expiration', 'ttl', 'lifetime'])

/**
 * Splits text into lowercase words at camelCase humps, digits-to-letters boundaries kept, and any
 * non-alphanumeric character.
 *
 * @example
 * ```ts
 * splitWords('userAPIKey_v2') // ['user', 'api', 'key', 'v2']
 * ```
 */
export function splitWords(text: string): string[] {
  return text
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z\d]+/)
    .filter(Boolean)
}

/** A plural of the phrase's last word counts too, except "tokens": in AI apps that is a count. */
function sameWord(word: string, expected: string, last: boolean): boolean {
  return word === expected || (last && expected !== 'token' && word === `${expected}s`)
}

function matchAt(words: readonly string[], at: number, phrase: readonly string[]): boolean {
  if (!phrase.every((part, i) => sameWord(words[at + i] ?? '', part, i === phrase.length - 1))) return false
  return !QUALIFIERS.has(words[at + phrase.length] ?? '')
}

/**
 * Finds the first sensitive phrase in a text, word-aware, or `undefined` when there is none.
 *
 * @example
 * ```ts
 * findSensitiveTerm('githubAccessToken') // 'token'
 * findSensitiveTerm('tokenizer') // undefined
 * ```
 */
export function findSensitiveTerm(text: string): string | undefined {
  const words = splitWords(text)
  for (let at = 0; at < words.length; at++) {
    for (const phrase of PHRASES) if (matchAt(words, at, phrase)) return phrase.join(' ')
    const word = words[at] ?? ''
    const ending = SECRET_ENDINGS.find(end => word.length > end.length && word.endsWith(end))
    if (ending && !QUALIFIERS.has(words[at + 1] ?? '')) return ending
  }
  return undefined
}

/**
 * Refuses a field whose name, title or description asks for a secret or payment data, naming the
 * field and pointing to URL mode. Returns `undefined` when the field is fine.
 *
 * @example
 * ```ts
 * checkSensitiveField('apiKey', {}) // McpElicitationError('invalid-schema', …)
 * checkSensitiveField('city', { title: 'City' }) // undefined
 * ```
 */
export function checkSensitiveField(name: string, labels: { title?: string; description?: string }): McpElicitationError | undefined {
  const places: [string, string | undefined][] = [['its name', name], ['its title', labels.title], ['its description', labels.description]]
  for (const [place, text] of places) {
    const term = text === undefined ? undefined : findSensitiveTerm(text)
    if (term === undefined) continue
    return refuseField(
      name,
      `it looks like it asks for sensitive data ("${term}" in ${place}); form mode MUST NOT collect passwords, API keys, tokens or payment data`,
      'Collect secrets with elicit.url() (send the user to a page you control), '
      + 'or pass { allowSensitive: true } if this field is not actually secret.',
    )
  }
  return undefined
}

/**
 * The refusal of the first field, in form order, that asks for a secret or payment data, or
 * `undefined` when none does.
 *
 * @example
 * ```ts
 * findSensitiveField([['city', { title: 'City' }], ['apiKey', {}]]) // McpElicitationError naming "apiKey"
 * ```
 */
export function findSensitiveField(fields: readonly (readonly [string, { title?: string; description?: string }, ...unknown[]])[]): McpElicitationError | undefined {
  for (const [name, labels] of fields) {
    const refusal = checkSensitiveField(name, labels)
    if (refusal) return refusal
  }
  return undefined
}
