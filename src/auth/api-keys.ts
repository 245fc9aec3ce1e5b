// API key format: "idx_" + 32 random base62 characters + a 6-character base62 CRC-32 of
// everything before it. The checksum lets a secret scanner (or us, before any database work)
// tell a real key from a typo or a random string offline. Only a SHA-256 of the key is stored.
import { createHash, randomInt } from 'node:crypto'
import { crc32 } from 'node:zlib'

export const API_KEY_PREFIX = 'idx_'
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const RANDOM_LENGTH = 32
const CHECKSUM_LENGTH = 6
const KEY_PATTERN = /^idx_[0-9A-Za-z]{38}$/
/** Characters shown in listings to tell keys apart: the prefix and 8 random characters. */
const VISIBLE_LENGTH = API_KEY_PREFIX.length + 8

function base62(value: number, length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) {
    out = BASE62[value % 62] + out
    value = Math.floor(value / 62)
  }
  return out
}

function checksum(body: string): string {
  return base62(crc32(body), CHECKSUM_LENGTH)
}

export interface GeneratedKey {
  key: string
  prefix: string
  hash: string
}

export function generateApiKey(): GeneratedKey {
  let random = ''
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(62)]
  const body = API_KEY_PREFIX + random
  const key = body + checksum(body)
  return { key, prefix: key.slice(0, VISIBLE_LENGTH), hash: hashApiKey(key) }
}

/** True when the string has the shape of a key and its checksum matches. */
export function isWellFormedApiKey(candidate: string): boolean {
  if (!KEY_PATTERN.test(candidate)) return false
  const body = candidate.slice(0, -CHECKSUM_LENGTH)
  return checksum(body) === candidate.slice(-CHECKSUM_LENGTH)
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}
