/**
 * base64url (RFC 4648 §5, no padding) of bytes, with web APIs only: `Buffer` does not exist, or
 * lacks `base64url`, on every runtime Nuxt deploys to.
 *
 * @example
 * ```ts
 * encodeBase64Url(new TextEncoder().encode('hi')) // 'aGk'
 * ```
 */
export function encodeBase64Url(bytes: Uint8Array): string {
  let binary = ''
  // In slices: String.fromCharCode(...bytes) overflows the stack on large inputs.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/**
 * The bytes of a base64url string; `undefined` when it is not one.
 *
 * @example
 * ```ts
 * new TextDecoder().decode(decodeBase64Url('aGk')) // 'hi'
 * ```
 */
export function decodeBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[\w-]*$/.test(text)) return undefined
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
    const bytes = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
    return bytes
  }
  catch {
    return undefined
  }
}
