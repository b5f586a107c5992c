import { createRemoteJWKSet, decodeJwt, errors, jwtVerify } from 'jose'
import type { JWTHeaderParameters, JWTPayload } from 'jose'
import { BearerError } from './bearer-error'
import { refuseBoundToken } from './token-binding'
import { cachePerIssuer, fetchIssuerMetadata, usableEndpoint } from './issuer-metadata'
import type { OAuthSettings } from './settings'

/** An authorization server's keys, as far as verification needs them. */
async function keysOf(issuer: string, maxAgeMs: number): Promise<ReturnType<typeof createRemoteJWKSet>> {
  const { jwks_uri } = await fetchIssuerMetadata(issuer)
  if (!jwks_uri) throw new BearerError('unavailable', `The authorization server ${issuer} publishes no jwks_uri, so its JWT access tokens cannot be verified.`)
  // Cached keys stay usable while the issuer is down, for `maxAgeMs` (auth.jwksMaxAgeSeconds):
  // then fetched again, so a key the issuer dropped (compromised, rotated out) stops verifying.
  // An unknown `kid` refetches at once (key rotation).
  return createRemoteJWKSet(new URL(usableEndpoint(jwks_uri, issuer, 'jwks_uri')), { cacheMaxAge: maxAgeMs, cooldownDuration: 5000 })
}

function describe(error: unknown, settings: OAuthSettings): BearerError {
  if (error instanceof BearerError) return error
  if (error instanceof errors.JWTExpired) return new BearerError('expired', 'The access token has expired: get a new one.')
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return new BearerError('audience', `The access token is for another resource: request one for ${settings.resource}.`)
    if (error.claim === 'iss') return new BearerError('issuer', 'The access token comes from an authorization server this endpoint does not accept.')
    if (error.claim === 'exp' && error.reason === 'missing') return new BearerError('malformed', 'The access token has no expiry (exp): tokens that never expire are refused. Have the authorization server set one.')
    return new BearerError('malformed', `The access token's "${error.claim}" claim is not valid.`)
  }
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) {
    return new BearerError('signature', 'The access token\'s signature does not verify with the authorization server\'s keys.')
  }
  if (error instanceof errors.JWKSTimeout || (error instanceof TypeError && /fetch/i.test(error.message))) {
    return new BearerError('unavailable', 'The authorization server\'s keys could not be fetched; retry later.')
  }
  return new BearerError('malformed', 'The access token is not a valid JWT.')
}

/** `at+jwt`, however the header spells it (`application/at+jwt` too, RFC 9068 §2.1). */
function isAccessTokenType(header: JWTHeaderParameters): boolean {
  return typeof header.typ === 'string' && header.typ.toLowerCase().replace(/^application\//, '') === 'at+jwt'
}

/**
 * An OpenID Connect ID token, signed by the same issuer with the same keys, says who signed in to
 * a client: it is not an access token for this endpoint. Refused unless typed `at+jwt`: a
 * `nonce`, Keycloak's `typ: "ID"`, or an audience that is the token's own client (`azp`) with no
 * scope and no Keycloak `typ: "Bearer"` (access tokens carry one or the other; ID tokens neither).
 */
function refuseIdToken(payload: JWTPayload, header: JWTHeaderParameters): void {
  if (isAccessTokenType(header)) return
  const audiences = typeof payload.aud === 'string' ? [payload.aud] : payload.aud ?? []
  const forItsOwnClient = typeof payload.azp === 'string' && audiences.includes(payload.azp)
  const accessTokenSigns = payload.typ === 'Bearer' || payload.scope !== undefined || payload.scp !== undefined
  if (payload.nonce !== undefined || payload.typ === 'ID' || (forItsOwnClient && !accessTokenSigns)) {
    throw new BearerError('malformed', 'The token is an OpenID Connect ID token, not an access token: send the access token the authorization server issued for this endpoint.')
  }
}

/**
 * Verifies JWT access tokens against their issuer's JWKS (found through the issuer's metadata,
 * cached; refreshed when a token names an unknown key): signature, issuer, audience, expiry (which
 * it must have) with a clock-skew tolerance, that it is not an ID token and not bound to a key
 * (`cnf`). Resolves with the claims, or rejects with a {@link BearerError}.
 *
 * @example
 * ```ts
 * const verify = createJwtVerifier(settings)
 * const claims = await verify(token)
 * ```
 */
export function createJwtVerifier(settings: OAuthSettings): (token: string) => Promise<JWTPayload> {
  const keys = cachePerIssuer(issuer => keysOf(issuer, settings.jwksMaxAgeMs))
  return async (token) => {
    try {
      let unverified: JWTPayload
      try {
        unverified = decodeJwt(token)
      }
      catch {
        throw new BearerError('malformed', 'The access token is not a well-formed JWT: send the token the authorization server issued, unchanged.')
      }
      const issuer = settings.issuers.find(candidate => candidate.replace(/\/$/, '') === String(unverified.iss ?? '').replace(/\/$/, ''))
      if (!issuer) throw new BearerError('issuer', 'The access token comes from an authorization server this endpoint does not accept.')
      const { payload, protectedHeader } = await jwtVerify(token, await keys(issuer), { issuer: unverified.iss, audience: settings.audiences, clockTolerance: settings.clockToleranceSeconds, requiredClaims: ['exp'] })
      refuseIdToken(payload, protectedHeader)
      refuseBoundToken(payload)
      return payload
    }
    catch (error) {
      throw describe(error, settings)
    }
  }
}
