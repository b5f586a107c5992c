import type { JWTPayload } from 'jose'
import { isRecord } from '../../common/is-record'
import { BearerError } from './bearer-error'

/**
 * Refuses a token this endpoint cannot use as a plain bearer token: one bound to a key (a `cnf`
 * claim: DPoP's `jkt`, mutual TLS's `x5t#S256`), or one whose introspection says it is of another
 * type than `Bearer` (`token_type: "DPoP"`). The holder of a bound token must prove the key on
 * every request, and this endpoint does not check such proofs: accepting the token without one
 * would let whoever copied it use it, which is what the binding exists to prevent (RFC 9449 §7.1,
 * RFC 8705 §3).
 *
 * @example
 * ```ts
 * refuseBoundToken(claims)                        // a verified JWT's claims
 * refuseBoundToken(claims, introspected.token_type) // an introspection answer
 * ```
 */
export function refuseBoundToken(claims: JWTPayload, tokenType?: unknown): void {
  if (tokenType !== undefined && (typeof tokenType !== 'string' || tokenType.toLowerCase() !== 'bearer')) {
    throw new BearerError('malformed', `The access token is of type ${JSON.stringify(tokenType)} (its introspection's token_type), and this endpoint takes Bearer tokens only: request one without a DPoP proof.`)
  }
  if (isRecord(claims.cnf)) {
    const bindings = Object.keys(claims.cnf).join(', ') || 'an empty cnf'
    throw new BearerError('malformed', `The access token is bound to a key (cnf: ${bindings}), and this endpoint takes unbound Bearer tokens only: it cannot check the proof such a token needs. Request one without a DPoP proof or certificate binding.`)
  }
}
