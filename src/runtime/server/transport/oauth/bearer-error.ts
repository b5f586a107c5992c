/**
 * Why a token was refused; `unavailable` (503) when the issuer could not be reached, `throttled`
 * (429) when a caller sent too many tokens the issuer did not know.
 */
export type BearerFailure = 'malformed' | 'signature' | 'issuer' | 'audience' | 'expired' | 'inactive' | 'unavailable' | 'throttled'

/**
 * A refused token: the kind (for the status and the challenge) and a message naming the cause and
 * the way out, shown to the client as `error_description`.
 *
 * @example
 * ```ts
 * throw new BearerError('expired', 'The access token has expired: get a new one.')
 * ```
 */
export class BearerError extends Error {
  override readonly name = 'BearerError'
  constructor(readonly kind: BearerFailure, message: string) {
    super(message)
  }
}
