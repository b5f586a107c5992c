import { describe, expect, it } from 'vitest'
import { isStaleCacheFailure } from '../../../scripts/node-runtime.mjs'

describe('installs that cannot go stale', () => {
  it('tells a failure on npm\'s cache (a release since its metadata was cached, a damaged tarball) from others', () => {
    // What npm printed when vue had been released after its cached metadata (the packaging test's red run).
    expect(isStaleCacheFailure('npm error code ETARGET\nnpm error notarget No matching version found for @vue/compiler-dom@3.5.46.')).toBe(true)
    expect(isStaleCacheFailure('npm error code ENOVERSIONS')).toBe(true)
    expect(isStaleCacheFailure('npm error code EINTEGRITY\nnpm error sha512-… integrity checksum failed when using sha512')).toBe(true)
    expect(isStaleCacheFailure('npm error code ENOSPC\nnpm error syscall write')).toBe(false)
  })
})
