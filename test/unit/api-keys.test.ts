import { describe, expect, it } from 'vitest'
import { generateApiKey, hashApiKey, isWellFormedApiKey } from '../../src/auth/api-keys.ts'

describe('API key format', () => {
  it('is idx_ + 32 random base62 characters + a 6-character checksum', () => {
    const { key, prefix, hash } = generateApiKey()
    expect(key).toMatch(/^idx_[0-9A-Za-z]{38}$/)
    expect(prefix).toBe(key.slice(0, 12))
    expect(hash).toBe(hashApiKey(key))
    expect(hash).toMatch(/^[0-9a-f]{64}$/)
    expect(isWellFormedApiKey(key)).toBe(true)
  })

  it('keys are unique', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey().key))
    expect(keys.size).toBe(1000)
  })

  it('the checksum catches any single changed character', () => {
    const { key } = generateApiKey()
    for (let i = 4; i < key.length; i++) {
      const replacement = key[i] === 'a' ? 'b' : 'a'
      const typo = key.slice(0, i) + replacement + key.slice(i + 1)
      expect(isWellFormedApiKey(typo), `changed position ${i}`).toBe(false)
    }
  })

  it('refuses other shapes', () => {
    const { key } = generateApiKey()
    for (const bad of [
      '',
      'idx_',
      key.slice(0, -1),
      `${key}x`,
      key.replace('idx_', 'IDX_'),
      key.replace('idx_', 'xdi_'),
      `${key.slice(0, 20)}-${key.slice(21)}`,
    ]) {
      expect(isWellFormedApiKey(bad), bad).toBe(false)
    }
  })

  it('never stores the key: the hash does not contain it', () => {
    const { key, hash } = generateApiKey()
    expect(hash.includes(key.slice(4))).toBe(false)
  })
})
