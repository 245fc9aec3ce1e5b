// Fuzzes the relationship endpoints and their legacy household aliases over real HTTP on a real
// store (DESIGN §5: "every endpoint is fuzzed and must answer 4xx {error} — never 5xx, never a
// hang"). Whatever arrives — random query strings, JSON and non-JSON bodies, content types,
// Authorization headers and keys — the answer is a documented status with the documented error
// body, within a few seconds, and nothing reaches another organization.
//
// Generated requests are plain data (big bodies, deep nesting and long values are described, not
// spelled out) so that a counterexample printed by fast-check stays readable.
import net from 'node:net'
import { crc32 } from 'node:zlib'
import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BODY_LIMIT_BYTES } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { revokeApiKey } from '../../src/store/api-keys.ts'
import { insertHousehold } from '../../src/store/households.ts'
import { householdCounts } from '../../src/store/orgs.ts'
import { ALL_PERMISSIONS, call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { fetchOutcome, REQUEST_TIMEOUT_MS, type Outcome } from '../helpers/fuzz-http.ts'
import { EMPTY_FIELDS } from '../helpers/seed.ts'

/** A request that takes longer than this is treated as a hang (generous: the machine is shared). */
const PROPERTY_TEST_TIMEOUT_MS = 180_000
const RUNS = 150

const RELATIONSHIPS = '/api/v1/relationships'
const HOUSEHOLDS = '/api/v1/households'
const PATHS = [RELATIONSHIPS, HOUSEHOLDS] as const
const KNOWN_PARAMS = ['page', 'pageSize', 'sortBy', 'sortOrder', 'excludeSample', 'isSample', 'ids', 'search'] as const
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

// ---------------------------------------------------------------------------------------------
// The requests, as data

interface Credential {
  label: string
  key: string
  /** Authenticates (not expired, not revoked). */
  active: boolean
  read: boolean
  write: boolean
  org: 'fuzz' | 'other'
}

interface AuthSpec {
  /** What the Authorization header is, for humans reading a counterexample. */
  label: string
  header: string | undefined
  /** The credential the server must resolve this header to; undefined: it must answer 401. */
  credential: Credential | undefined
}

/** A query value: literal text, or a long run of one string (kept short in counterexamples). */
type ValueSpec = string | { repeat: string; times: number }
type Encoding = 'component' | 'all-bytes' | 'raw'
type QueryPiece = { key: ValueSpec; value: ValueSpec | undefined; encoding: Encoding } | { junk: string }

type BodySpec =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: number[] }
  /** metadata (or the whole body) nested `depth` levels deep, written out as text. */
  | { kind: 'deep'; where: 'metadata-object' | 'metadata-array' | 'top-level'; depth: number }
  /** A create body padded to exactly `bytes` bytes. */
  | { kind: 'sized'; bytes: number }

interface RequestSpec {
  method: 'GET' | 'POST'
  path: string
  query: QueryPiece[]
  auth: AuthSpec
  contentType: string | undefined
  idempotencyKey: string | undefined
  cookie: string | undefined
  body: BodySpec
}

// ---------------------------------------------------------------------------------------------
// Materializing requests

function materialize(value: ValueSpec): string {
  return typeof value === 'string' ? value : value.repeat.repeat(value.times)
}

/** Percent-encodes the UTF-8 bytes (lone surrogates become U+FFFD, as a browser would send). */
function percentEncode(text: string, keepUnreserved: boolean): string {
  let out = ''
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte)
    out +=
      keepUnreserved && /[A-Za-z0-9\-_.~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

function encode(text: string, encoding: Encoding): string {
  if (encoding === 'raw') return text
  return percentEncode(text, encoding === 'component')
}

function queryString(pieces: QueryPiece[]): string {
  if (pieces.length === 0) return ''
  const parts = pieces.map((piece) => {
    if ('junk' in piece) return piece.junk
    const key = encode(materialize(piece.key), piece.encoding)
    return piece.value === undefined ? key : `${key}=${encode(materialize(piece.value), piece.encoding)}`
  })
  return `?${parts.join('&')}`
}

function deepText(where: 'metadata-object' | 'metadata-array' | 'top-level', depth: number): string {
  if (where === 'metadata-object') return `{"name":"Deep","metadata":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`
  if (where === 'metadata-array') return `{"name":"Deep","metadata":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`
  return `${'['.repeat(depth)}${']'.repeat(depth)}`
}

function sizedText(bytes: number): string {
  const head = '{"name":"Sized","metadata":{"blob":"'
  const tail = '"}}'
  return head + 'x'.repeat(Math.max(0, bytes - head.length - tail.length)) + tail
}

function bodyOf(spec: BodySpec): string | Uint8Array | undefined {
  switch (spec.kind) {
    case 'none':
      return undefined
    case 'json':
      return JSON.stringify(spec.value) ?? 'null'
    case 'text':
      return spec.text
    case 'bytes':
      return Uint8Array.from(spec.bytes)
    case 'deep':
      return deepText(spec.where, spec.depth)
    case 'sized':
      return sizedText(spec.bytes)
  }
}

function describeRequest(spec: RequestSpec): string {
  const query = queryString(spec.query)
  const body = bodyOf(spec.body)
  const bodyText = body === undefined ? '(none)' : typeof body === 'string' ? body : `${body.length} bytes`
  return [
    `${spec.method} ${spec.path}${query.length > 300 ? `${query.slice(0, 300)}… (${query.length} chars)` : query}`,
    `auth: ${spec.auth.label}`,
    spec.contentType === undefined ? '' : `content-type: ${JSON.stringify(spec.contentType)}`,
    spec.idempotencyKey === undefined ? '' : `idempotency-key: ${JSON.stringify(spec.idempotencyKey)}`,
    `body: ${bodyText.length > 300 ? `${JSON.stringify(bodyText.slice(0, 300))}… (${bodyText.length} chars)` : JSON.stringify(bodyText)}`,
  ]
    .filter(Boolean)
    .join('\n  ')
}

async function send(baseUrl: string, spec: RequestSpec): Promise<Outcome> {
  const headers: Record<string, string> = {}
  if (spec.auth.header !== undefined) headers.authorization = spec.auth.header
  if (spec.contentType !== undefined) headers['content-type'] = spec.contentType
  if (spec.idempotencyKey !== undefined) headers['idempotency-key'] = spec.idempotencyKey
  if (spec.cookie !== undefined) headers.cookie = spec.cookie
  const body = spec.method === 'POST' ? bodyOf(spec.body) : undefined
  return fetchOutcome(baseUrl + spec.path + queryString(spec.query), { method: spec.method, headers, body }, () =>
    describeRequest(spec),
  )
}

// ---------------------------------------------------------------------------------------------
// Arbitraries. Most generated requests are nearly right (a permitted key, JSON, mostly valid
// fields) with a few things wrong, so that they reach the validators, the handlers and the
// database rather than stopping at the first check.

/** `valid` most of the time, `invalid` otherwise. */
function mostly<T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>, odds = 6): fc.Arbitrary<T | U> {
  return fc.oneof({ weight: odds, arbitrary: valid }, { weight: 1, arbitrary: invalid })
}

const NASTY = [
  '\u0000',
  '\ud800',
  '\udfff',
  '\u202e',
  '\u2028',
  '\ufeff',
  '\u00a0',
  '\u0085',
  '\u0007',
  '\u007f',
  '%',
  '_',
  '\\',
  '&',
  '=',
  '+',
  '#',
  '?',
  '/',
  ' ',
  '\t',
  '\n',
  '\r',
  '"',
  "'",
  '<',
  '>',
  '€',
  '😀',
  'é',
  'e\u0301',
  '%00',
  '%zz',
]
const charArb = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
)
/** Any text: ASCII, any code point, graphemes, and characters known to trouble parsers and databases. */
const textArb = (maxLength: number) => fc.string({ unit: charArb, maxLength })
/** Printable text that the name rules accept (once trimmed and non-empty). */
const printableArb = (maxLength: number) =>
  fc.string({
    unit: fc.oneof(
      fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    ),
    minLength: 1,
    maxLength,
  })

/** Characters fetch accepts in a header value: HTAB, visible ASCII, space and obs-text. */
const headerCharArb = fc
  .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constant(0x09))
  .map((code) => String.fromCharCode(code))
const headerTextArb = (maxLength: number) => fc.string({ unit: headerCharArb, maxLength })

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
// eslint-disable-next-line @typescript-eslint/no-misused-spread -- BASE62 is ASCII: one character per code point.
const base62CharArb = fc.constantFrom(...BASE62)

/** The key format's checksum (6 base62 digits of the CRC-32 of everything before it). */
function checksum(body: string): string {
  let value = crc32(body)
  let out = ''
  for (let i = 0; i < 6; i++) {
    out = BASE62[value % 62] + out
    value = Math.floor(value / 62)
  }
  return out
}

const wellFormedUnknownKeyArb = fc.string({ unit: base62CharArb, minLength: 32, maxLength: 32 }).map((random) => {
  const body = `idx_${random}`
  return body + checksum(body)
})

/** credentials[0] is the fuzzing org's key with every permission; it is used most. */
function authArb(credentials: Credential[]): fc.Arbitrary<AuthSpec> {
  const main = credentials[0]
  if (!main) throw new Error('no credentials')
  const credential = fc.oneof(
    { weight: 4, arbitrary: fc.constant(main) },
    { weight: 1, arbitrary: fc.constantFrom(...credentials) },
  )
  // Forms the server must accept (fetch also trims trailing whitespace).
  const accepted = fc
    .tuple(
      credential,
      fc.oneof(
        { weight: 6, arbitrary: fc.constant('Bearer %s') },
        { weight: 1, arbitrary: fc.constantFrom('bearer %s', 'BEARER   %s', 'Bearer %s  ') },
      ),
    )
    .map(([c, form]): AuthSpec => ({
      label: `${c.label} as ${JSON.stringify(form)}`,
      header: form.replace('%s', c.key),
      credential: c.active ? c : undefined,
    }))
  // Real keys in forms the server must refuse.
  const refusedForms = fc
    .tuple(
      fc.constantFrom(...credentials),
      fc.constantFrom(
        'Bearer\t%s',
        '%s',
        'Bearer %s extra',
        'Basic %s',
        'Token %s',
        'Bearer "%s"',
        'Bearer %s,',
        'Bearer:%s',
        'Bearer=%s',
        'Bearer %s %s',
      ),
    )
    .map(([c, form]): AuthSpec => ({
      label: `${c.label} as ${JSON.stringify(form)}`,
      header: form.replaceAll('%s', c.key),
      credential: undefined,
    }))
  // Real keys with one character changed, one missing or one too many.
  const mutated = fc
    .tuple(
      fc.constantFrom(...credentials),
      fc.nat(),
      base62CharArb,
      fc.constantFrom('replace', 'drop-last', 'append', 'uppercase-prefix', 'swap-case'),
    )
    .map(([c, at, char, how]): AuthSpec => {
      const position = 4 + (at % 38)
      let key: string
      if (how === 'replace') {
        const replacement = c.key[position] === char ? (char === 'a' ? 'b' : 'a') : char
        key = c.key.slice(0, position) + replacement + c.key.slice(position + 1)
      } else if (how === 'drop-last') key = c.key.slice(0, -1)
      else if (how === 'append') key = c.key + char
      else if (how === 'uppercase-prefix') key = `IDX_${c.key.slice(4)}`
      // eslint-disable-next-line @typescript-eslint/no-misused-spread -- keys are ASCII (base62 and _): one character per code point.
      else key = [...c.key].map((ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase())).join('')
      return { label: `${c.label}, ${how}`, header: `Bearer ${key}`, credential: undefined }
    })
  const unknown = wellFormedUnknownKeyArb.map((key): AuthSpec => ({
    label: 'well-formed unknown key',
    header: `Bearer ${key}`,
    credential: undefined,
  }))
  const random = fc
    .oneof(
      headerTextArb(60),
      headerTextArb(60).map((text) => `Bearer ${text}`),
      headerTextArb(45).map((text) => `Bearer idx_${text}`),
      fc.string({ unit: base62CharArb, minLength: 30, maxLength: 45 }).map((text) => `Bearer idx_${text}`),
      fc.integer({ min: 100, max: 3000 }).map((n) => `Bearer idx_${'A'.repeat(n)}`),
    )
    .map((header): AuthSpec => ({ label: 'random', header, credential: undefined }))
  const absent = fc.constant<AuthSpec>({ label: 'absent', header: undefined, credential: undefined })
  return fc.oneof(
    { weight: 24, arbitrary: accepted },
    { weight: 2, arbitrary: refusedForms },
    { weight: 2, arbitrary: mutated },
    { weight: 1, arbitrary: unknown },
    { weight: 2, arbitrary: random },
    { weight: 1, arbitrary: absent },
  )
}

const uuidArb = fc.uuid()
/** Long runs of one character; `long` lets them pass the 16 KB request-head limit, else they stay under it. */
const longValueArb = (long: boolean) =>
  fc.oneof(
    fc.record({
      repeat: fc.constantFrom('a', '-', '~'),
      times: fc.integer({ min: 1000, max: long ? 20_000 : 10_000 }),
    }),
    fc.record({
      repeat: fc.constantFrom('é', '%', '\u0000'),
      times: fc.integer({ min: 300, max: long ? 10_000 : 1_800 }),
    }),
    fc.record({ repeat: fc.constant('😀'), times: fc.integer({ min: 100, max: long ? 5_000 : 900 }) }),
  )

/** `long`: also values past Node's 16 KB limit on the request head (see the pinned 431 case below). */
function valueArbFor(param: (typeof KNOWN_PARAMS)[number], long: boolean): fc.Arbitrary<ValueSpec> {
  const oddInteger = fc.oneof(
    fc.integer({ min: -3, max: 1005 }).map(String),
    fc.constantFrom(
      '0',
      '1001',
      '10000000',
      '10000001',
      '99999999999999999999',
      '1.5',
      '1.0',
      '1e3',
      '-0',
      ' 1',
      '0x10',
      'NaN',
      'Infinity',
      '',
      'true',
      '١',
    ),
    textArb(12),
  )
  const choice = (valid: readonly string[], odd: readonly string[]) =>
    mostly(
      fc.constantFrom(...valid),
      fc.oneof(
        fc.mixedCase(fc.constantFrom(...valid)),
        fc.constantFrom('', ' ', 'null', 'undefined', `${valid[0]} `, `${valid[0]},${valid[1] ?? ''}`, ...odd),
        textArb(12),
      ),
    )
  switch (param) {
    case 'page':
      return mostly(fc.integer({ min: 1, max: 5 }).map(String), oddInteger)
    case 'pageSize':
      return mostly(fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.constantFrom(1, 2, 1000)).map(String), oddInteger)
    case 'sortBy':
      return choice(['name', 'members', 'createdAt'], ['id', 'createdat', 'name desc'])
    case 'sortOrder':
      return choice(['asc', 'desc'], ['ASC', 'descending'])
    case 'excludeSample':
    case 'isSample':
      return choice(['true', 'false'], ['1', '0', 'TRUE', 'yes'])
    case 'ids':
      return mostly(
        fc.oneof(
          { weight: 3, arbitrary: uuidArb },
          { weight: 1, arbitrary: uuidArb.map((id) => id.toUpperCase()) },
          { weight: 3, arbitrary: fc.array(uuidArb, { minLength: 1, maxLength: 6 }).map((ids) => ids.join(',')) },
          {
            weight: 1,
            arbitrary: fc.array(uuidArb, { minLength: 1, maxLength: 4 }).map((ids) => ` ${ids.join(' , ')} `),
          },
          { weight: 1, arbitrary: fc.array(uuidArb, { minLength: 200, maxLength: 460 }).map((ids) => ids.join(',')) },
        ),
        fc.oneof(
          fc.constantFrom(
            '',
            ',',
            'nope',
            '00000000-0000-0000-0000-00000000000g',
            '{00000000-0000-0000-0000-000000000000}',
            `${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)},`,
          ),
          textArb(40),
        ),
        3,
      )
    case 'search':
      return fc.oneof(
        { weight: 4, arbitrary: textArb(30) },
        {
          weight: 2,
          arbitrary: fc.constantFrom(
            '%',
            '_',
            '\\',
            '\u0000',
            'a\u0000b',
            '\ud800',
            ' ',
            'smith',
            'SMITH',
            '%_\\',
            "'; drop table households; --",
          ),
        },
        {
          weight: 1,
          arbitrary: fc.integer({ min: 150, max: 260 }).map((times): ValueSpec => ({ repeat: 'x', times })),
        },
        { weight: 1, arbitrary: longValueArb(long) },
      )
  }
}

const knownPairArb = (long: boolean) =>
  fc
    .constantFrom(...KNOWN_PARAMS)
    .chain((param) =>
      fc.tuple(
        fc.oneof(
          { weight: 8, arbitrary: fc.constant<ValueSpec>(param) },
          { weight: 1, arbitrary: fc.mixedCase(fc.constant(param)) },
        ),
        fc.option(valueArbFor(param, long), { nil: undefined, freq: 12 }),
      ),
    )

const unknownKeyArb = fc.oneof(
  textArb(12),
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'hasOwnProperty',
    'toString',
    'api_key',
    'apikey',
    'key',
    'token',
    'access_token',
    'ids[]',
    'page[]',
    'a[b]',
    'PAGE',
    '',
  ),
)

function queryArb(credentials: Credential[], long: boolean): fc.Arbitrary<QueryPiece[]> {
  const keyValue = fc.oneof(
    { weight: 3, arbitrary: textArb(30) },
    { weight: 1, arbitrary: fc.constantFrom(...credentials.map((c) => c.key)) },
    { weight: 1, arbitrary: longValueArb(long) },
  )
  const pair = fc.oneof(
    { weight: 6, arbitrary: knownPairArb(long) },
    {
      weight: 1,
      arbitrary: fc.tuple(
        unknownKeyArb.map((k): ValueSpec => k),
        fc.option(keyValue, { nil: undefined, freq: 8 }),
      ),
    },
  )
  const piece = fc.oneof(
    {
      weight: 12,
      arbitrary: fc
        .tuple(pair, fc.constantFrom<Encoding>('component', 'component', 'component', 'all-bytes', 'raw'))
        .map(([[key, value], encoding]): QueryPiece => ({ key, value, encoding })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '%',
          '%%',
          '%2',
          '%zz',
          '%C3',
          '%ED%A0%80',
          '%FF%FE',
          '%00',
          '+',
          '&',
          '=',
          '==',
          ';',
          '%26',
          '%3D',
          '?',
          '[]',
          '[',
          ']',
          '#',
        )
        .map((junk): QueryPiece => ({ junk })),
    },
  )
  // Without `long`, pieces that would take the query past QUERY_BUDGET characters are left out.
  return fc.array(piece, { maxLength: 6 }).map((pieces) => (long ? pieces : withinBudget(pieces)))
}

/** With the other headers (at most ~4 KB here), this keeps the request head under Node's 16 KB. */
const QUERY_BUDGET = 11_000

function withinBudget(pieces: QueryPiece[]): QueryPiece[] {
  let used = 0
  return pieces.filter((piece) => {
    const length = queryString([piece]).length
    if (used + length > QUERY_BUDGET) return false
    used += length
    return true
  })
}

const jsonLeafArb = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  { weight: 3, arbitrary: textArb(20) },
)
const smallJsonArb = fc.oneof(
  { weight: 3, arbitrary: jsonLeafArb },
  { weight: 1, arbitrary: fc.array(jsonLeafArb, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(textArb(8), jsonLeafArb, { maxKeys: 3 }) },
)

function nested(depth: number, arrays: boolean): unknown {
  let value: unknown = 'leaf'
  for (let i = 0; i < depth; i++) value = arrays && i % 2 === 1 ? [value] : { level: value }
  return value
}

const todayPlus = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
const wrongTypeArb = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.array(jsonLeafArb, { maxLength: 2 }),
  fc.dictionary(textArb(5), jsonLeafArb, { maxKeys: 2 }),
  fc.constantFrom('12', 'true', 'null', ''),
)

const validNameArb = fc.oneof(
  fc.constantFrom('The Smiths', 'Ng Household', ' padded ', 'Ünïcödé 😀', '%_\\', "O'Brien", 'a'.repeat(200)),
  printableArb(40),
)
const oddNameArb = fc.oneof(
  fc.constantFrom(
    '',
    '   ',
    'a'.repeat(201),
    `${' '.repeat(900)}x`,
    'x'.repeat(1001),
    'tab\there',
    'nul\u0000',
    'lone\ud800',
    '\u2028',
    '\ufeff',
    '\u0085',
  ),
  textArb(40),
  wrongTypeArb,
)
const validDsueArb = fc.oneof(
  fc.integer({ min: 0, max: 100_000_000 }).map((cents) => cents / 100),
  fc.constantFrom(0, 1e12, 999_999_999_999.99, -0, null),
)
const oddDsueArb = fc.oneof(
  fc.constantFrom(1e12 + 0.01, -1, -0.01, 0.001, 1.005, 1e-7, 5e-324, Number.MAX_SAFE_INTEGER, 1e21, Number.MAX_VALUE),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  wrongTypeArb,
)
const validDateArb = fc.oneof(
  fc
    .date({ min: new Date('1800-01-01'), max: new Date('2020-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  fc.constantFrom('2020-02-29', '1800-01-01', todayPlus(0), null),
)
const oddDateArb = fc.oneof(
  fc.constantFrom(
    '2021-02-29',
    '1799-12-31',
    '2999-01-01',
    '2020-1-1',
    '20200101',
    '2020-13-01',
    '2020-00-10',
    '0000-01-01',
    '',
    '2020-01-01T00:00:00Z',
    ' 2020-01-01',
    todayPlus(2),
  ),
  fc
    .date({ min: new Date('0001-01-01'), max: new Date('9999-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  wrongTypeArb,
)
const validMetadataArb = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(textArb(10), smallJsonArb, { maxKeys: 5 }) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.integer({ min: 1, max: 8 }), fc.boolean()).map(([depth, arrays]) => nested(depth, arrays)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { a: '\u0000' },
      { '\u0000': 1 },
      { a: '\ud800' },
      { a: ['x\udc00y'] },
      { a: 1e300, b: -0 },
      null,
    ),
  },
)
const oddMetadataArb = fc.oneof(
  fc.tuple(fc.integer({ min: 9, max: 40 }), fc.boolean()).map(([depth, arrays]) => nested(depth, arrays)),
  fc.integer({ min: 16_300, max: 16_500 }).map((n) => ({ blob: 'x'.repeat(n) })),
  fc.jsonValue({ maxDepth: 2 }),
  wrongTypeArb,
)
const validFlagArb = fc.constantFrom(true, false, null)
const oddFlagArb = fc.constantFrom('true', 'false', 0, 1, [], {}, 'null')

const createBodyArb = fc
  .tuple(
    fc.record(
      {
        name: mostly(validNameArb, oddNameArb, 10),
        dsueReceived: mostly(validDsueArb, oddDsueArb, 10),
        deceasedSpouseName: mostly(fc.oneof(validNameArb, fc.constant(null)), oddNameArb, 10),
        dsueDateOfDeath: mostly(validDateArb, oddDateArb, 10),
        metadata: mostly(validMetadataArb, oddMetadataArb, 6),
        primaryClientAsDonor: mostly(validFlagArb, oddFlagArb, 10),
        coClientAsDonor: mostly(validFlagArb, oddFlagArb, 10),
      },
      { requiredKeys: ['name'] },
    ),
    fc.integer({ min: 0, max: 29 }),
    fc.option(
      fc.dictionary(
        fc.oneof(
          textArb(10),
          fc.constantFrom('id', 'orgId', 'org_id', 'isSample', 'createdAt', 'household', 'members'),
        ),
        smallJsonArb,
        { maxKeys: 2 },
      ),
      {
        nil: undefined,
        freq: 10,
      },
    ),
  )
  .map(([fields, dropName, extra]): Record<string, unknown> => {
    const body: Record<string, unknown> = { ...fields, ...extra }
    if (dropName === 0) delete body.name
    return body
  })

/** A create body that is right, so that requests get past the schema and into the database. */
const plausibleBodyArb = fc
  .record(
    {
      name: fc.constantFrom('The Smiths', 'Ng Household', 'Garcia-Lopez Family', 'Ünïcödé 😀'),
      dsueReceived: fc.integer({ min: 0, max: 100_000_000 }).map((cents) => cents / 100),
      dsueDateOfDeath: fc.constantFrom('2001-09-30', '2019-12-31', '1950-06-15'),
      metadata: fc.dictionary(
        fc.string({ maxLength: 8 }),
        fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean()),
        { maxKeys: 3 },
      ),
      primaryClientAsDonor: fc.boolean(),
    },
    { requiredKeys: ['name'] },
  )
  .map((body): Record<string, unknown> => body)

/** Metadata whose text is troublesome: NUL, lone surrogates and the rest of NASTY in keys and values. */
const troublesomeMetadataArb = fc.dictionary(
  fc.oneof(textArb(6), fc.constantFrom(...NASTY)),
  fc.oneof(
    textArb(12),
    fc.constantFrom(...NASTY),
    fc.array(fc.constantFrom(...NASTY), { maxLength: 2 }),
    fc.dictionary(fc.constantFrom(...NASTY), textArb(4), { maxKeys: 2 }),
  ),
  { minKeys: 1, maxKeys: 3 },
)

const bodyArb: fc.Arbitrary<BodySpec> = fc.oneof(
  { weight: 14, arbitrary: createBodyArb.map((value): BodySpec => ({ kind: 'json', value })) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(plausibleBodyArb, troublesomeMetadataArb)
      .map(([body, metadata]): BodySpec => ({ kind: 'json', value: { ...body, metadata } })),
  },
  { weight: 1, arbitrary: fc.jsonValue().map((value): BodySpec => ({ kind: 'json', value })) },
  { weight: 1, arbitrary: fc.json().map((text): BodySpec => ({ kind: 'text', text })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        plausibleBodyArb,
        fc.constantFrom(
          '"__proto__":{"isSample":true}',
          '"constructor":{"prototype":{"x":1}}',
          '"__proto__":null',
          '"metadata":{"__proto__":{"a":1}}',
          '"metadata":{"constructor":{"prototype":{}}}',
        ),
      )
      .map(([body, injected]): BodySpec => ({ kind: 'text', text: `{${injected},${JSON.stringify(body).slice(1)}` })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('dsueReceived', 'metadata', 'name', 'primaryClientAsDonor'),
        fc.constantFrom(
          '1e400',
          '-1e400',
          '1e-400',
          '123456789012345678901234567890',
          '0.000000000000000000000000001',
          '1E12',
          '999999999999.999',
          '-0.0',
          '100.10',
          '1e+2',
        ),
      )
      .map(([field, number]): BodySpec => ({
        kind: 'text',
        text:
          field === 'metadata'
            ? `{"name":"Numbers","metadata":{"n":${number}}}`
            : `{"name":"Numbers","${field}":${number}}`,
      })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        plausibleBodyArb.map((body) => JSON.stringify(body)),
        fc.constantFrom('truncate', 'trailing', 'bom', 'comment', 'quotes', 'duplicate', 'nan', 'whitespace', 'nul'),
      )
      .map(([text, how]): BodySpec => {
        const mangled = {
          truncate: text.slice(0, Math.max(0, text.length - 2)),
          trailing: `${text} x`,
          bom: `\ufeff${text}`,
          comment: `/* c */${text}`,
          quotes: text.replaceAll('"', "'"),
          duplicate: `{"name":1,${text.slice(1)}`,
          nan: '{"name":"x","dsueReceived":NaN}',
          whitespace: `\n\t ${text} \r\n`,
          nul: `${text}\u0000`,
        }[how]
        return { kind: 'text', text: mangled }
      }),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom<'metadata-object' | 'metadata-array' | 'top-level'>(
          'metadata-object',
          'metadata-array',
          'top-level',
        ),
        fc.oneof(fc.integer({ min: 9, max: 100 }), fc.integer({ min: 1000, max: 150_000 })),
      )
      .map(([where, depth]): BodySpec => ({ kind: 'deep', where, depth })),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: BODY_LIMIT_BYTES - 100, max: BODY_LIMIT_BYTES + 100 })
      .map((bytes): BodySpec => ({ kind: 'sized', bytes })),
  },
  { weight: 1, arbitrary: textArb(100).map((text): BodySpec => ({ kind: 'text', text })) },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.integer({ min: 0, max: 255 }), { maxLength: 100 })
      .map((bytes): BodySpec => ({ kind: 'bytes', bytes })),
  },
  { weight: 1, arbitrary: fc.constant<BodySpec>({ kind: 'none' }) },
)

const contentTypeArb = fc.oneof(
  { weight: 20, arbitrary: fc.constant('application/json') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/json;charset=UTF-8',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'application/json; foo=bar',
      'text/plain',
      'text/plain; charset=utf-8',
      'text/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/vnd.api+json',
      'application/problem+json',
      'application/octet-stream',
      '*/*',
      'json',
      'application/',
      '/json',
      ';',
      'application/json, text/plain',
    ),
  },
  { weight: 1, arbitrary: headerTextArb(40) },
  { weight: 1, arbitrary: fc.constant(undefined) },
)

const idempotencyKeyArb = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.constantFrom('fuzz-1', 'fuzz-2', 'fuzz-3') },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 }) },
  { weight: 1, arbitrary: headerTextArb(40) },
  { weight: 1, arbitrary: fc.constantFrom('a'.repeat(255), 'a'.repeat(256), 'with space', '') },
)

function cookieArb(credentials: Credential[]): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: headerTextArb(40).map((text) => `idp-session=${text}`) },
    { weight: 1, arbitrary: fc.constantFrom(...credentials).map((c) => `api_key=${c.key}; idp-session=${c.key}`) },
    { weight: 1, arbitrary: headerTextArb(60) },
  )
}

/** `longQueries`: query values may pass Node's 16 KB request-head limit (431, pinned separately below). */
function requestArb(
  credentials: Credential[],
  method: 'GET' | 'POST' | 'any',
  longQueries = false,
): fc.Arbitrary<RequestSpec> {
  const methods = method === 'any' ? fc.constantFrom<'GET' | 'POST'>('GET', 'POST') : fc.constant(method)
  return fc.record({
    method: methods,
    path: fc.constantFrom(...PATHS),
    query: queryArb(credentials, longQueries),
    auth: authArb(credentials),
    contentType: contentTypeArb,
    idempotencyKey: idempotencyKeyArb,
    cookie: cookieArb(credentials),
    body: bodyArb,
  })
}

// ---------------------------------------------------------------------------------------------
// What every answer must satisfy

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The error codes the OpenAPI description documents, with their statuses. */
function documentedCodes(doc: unknown): Map<string, number> {
  const info = isRecord(doc) ? doc.info : undefined
  const description = isRecord(info) && typeof info.description === 'string' ? info.description : ''
  const codes = new Map<string, number>()
  for (const match of description.matchAll(/^\|\s*(\d{3})\s*\|\s*`([a-z_]+)`\s*\|/gm))
    codes.set(String(match[2]), Number(match[1]))
  return codes
}

interface Checker {
  codes: Map<string, number>
  /** Households of the other organization: never visible to the fuzzing org's keys. */
  otherOrgIds: Set<string>
  /** Households the fuzzing created: id → number of 201 answers for it that were not replays. */
  created: Map<string, number>
  rateLimited: boolean
  windowSeconds: number
}

function expectedStatuses(spec: RequestSpec, rateLimited: boolean): number[] {
  const credential = spec.auth.credential
  let statuses: number[]
  if (!credential) statuses = [401]
  else if (!(spec.method === 'GET' ? credential.read : credential.write)) statuses = [403]
  else statuses = spec.method === 'GET' ? [200, 400] : [201, 400, 409, 413, 415]
  return rateLimited ? [...statuses, 429] : statuses
}

/** Bytes of the request line and headers, roughly as sent (what Node's 64 KB head limit counts). */
function headBytes(spec: RequestSpec): number {
  // As sent: fetch parses the URL (WHATWG), which percent-encodes raw non-ASCII (é → %C3%A9, 6 bytes).
  const sent = new URL(`${spec.path}${queryString(spec.query)}`, 'http://hearth.test')
  const line = `${spec.method} ${sent.pathname}${sent.search} HTTP/1.1`
  const values = [spec.auth.header, spec.contentType, spec.idempotencyKey, spec.cookie].filter(
    (v): v is string => v !== undefined,
  )
  return Buffer.byteLength(line) + values.reduce((sum, v) => sum + Buffer.byteLength(v) + 32, 0)
}

/** The server's head limit (src/app.ts MAX_HEADER_BYTES); near it, 431 comes before any routing. */
const HEAD_LIMIT_BYTES = 64 * 1024

function checkOutcome(checker: Checker, spec: RequestSpec, outcome: Outcome): void {
  const context = `\n  ${describeRequest(spec)}\nanswered ${outcome.status}: ${outcome.text.slice(0, 400)}`
  expect(outcome.status, `a 5xx${context}`).toBeLessThan(500)
  if (outcome.status === 431) {
    // Node answers an oversized head before authentication or routing: allowed only near the limit.
    expect(headBytes(spec), `431 for a small request head${context}`).toBeGreaterThan(HEAD_LIMIT_BYTES - 2048)
    expect(outcome.json, `431 without the error shape${context}`).toMatchObject({
      code: 'request_header_too_large',
      error: expect.any(String),
    })
    return
  }
  expect(expectedStatuses(spec, checker.rateLimited), `an unexpected status${context}`).toContain(outcome.status)
  expect(outcome.headers.get('content-type') ?? '', `not JSON${context}`).toMatch(/^application\/json/)
  expect(outcome.json, `a body that is not a JSON object${context}`).toSatisfy(isRecord)
  const body = isRecord(outcome.json) ? outcome.json : {}

  // Legacy paths say they are deprecated, on every answer; the new paths do not.
  if (spec.path === HOUSEHOLDS) {
    expect(outcome.headers.get('deprecation') ?? '', `no Deprecation header${context}`).toMatch(/^@\d+$/)
    expect(outcome.headers.get('link') ?? '', `no successor Link${context}`).toContain('rel="successor-version"')
  } else {
    expect(outcome.headers.get('deprecation'), `a Deprecation header on the new path${context}`).toBeNull()
  }
  // Every answer to an authenticated credential carries its remaining budget.
  if (spec.auth.credential && outcome.status !== 429) {
    expect(outcome.headers.get('ratelimit'), `no RateLimit header${context}`).toMatch(/r=\d+/)
    expect(outcome.headers.get('ratelimit-policy'), `no RateLimit-Policy header${context}`).toMatch(/q=\d+/)
  }

  if (outcome.status >= 300) {
    expect(typeof body.error, `no string "error"${context}`).toBe('string')
    expect(typeof body.code, `no string "code"${context}`).toBe('string')
    const code = String(body.code)
    expect(checker.codes.has(code), `code "${code}" is not in the documented table${context}`).toBe(true)
    expect(checker.codes.get(code), `code "${code}" is documented with another status${context}`).toBe(outcome.status)
    expect(body.requestId, `requestId differs from X-Request-Id${context}`).toBe(outcome.headers.get('x-request-id'))
    if (outcome.status === 400) {
      // The list takes no body and the create no query: the code names the part that is wrong.
      const plausible = spec.method === 'GET' ? ['invalid_query'] : ['invalid_body', 'invalid_json', 'invalid_header']
      expect(plausible, `400 with code "${code}"${context}`).toContain(code)
    }
    if (outcome.status === 401)
      expect(outcome.headers.get('www-authenticate') ?? '', `401 without a challenge${context}`).toMatch(/^Bearer /)
    if (outcome.status === 429) {
      expect(code).toBe('rate_limited')
      expect(typeof body.resetAt, `429 without resetAt${context}`).toBe('string')
      const resetAt = Date.parse(String(body.resetAt))
      expect(new Date(resetAt).toISOString(), `resetAt is not an ISO date-time${context}`).toBe(body.resetAt)
      expect(resetAt, `resetAt in the past${context}`).toBeGreaterThan(Date.now() - 5_000)
      expect(resetAt, `resetAt beyond the window${context}`).toBeLessThanOrEqual(
        Date.now() + checker.windowSeconds * 1000 + 5_000,
      )
      expect(outcome.headers.get('retry-after') ?? '', `429 without Retry-After${context}`).toMatch(/^\d+$/)
    }
    return
  }

  if (spec.method === 'GET') {
    expect(Array.isArray(body.households), `no households array${context}`).toBe(true)
    expect(Number.isInteger(body.total) && Number(body.total) >= 0, `total is not a count${context}`).toBe(true)
    const ids = (Array.isArray(body.households) ? body.households : []).map((item: unknown) =>
      isRecord(item) ? item.id : undefined,
    )
    const org = spec.auth.credential?.org
    for (const id of ids) {
      expect(typeof id === 'string' && UUID.test(id), `a list item without a uuid${context}`).toBe(true)
      if (org === 'fuzz')
        expect(
          checker.otherOrgIds.has(String(id)),
          `another organization's household ${String(id)} is visible${context}`,
        ).toBe(false)
      if (org === 'other')
        expect(
          checker.otherOrgIds.has(String(id)),
          `household ${String(id)} appeared in the other organization${context}`,
        ).toBe(true)
    }
    return
  }

  const household = isRecord(body.household) ? body.household : {}
  const id = String(household.id)
  expect(UUID.test(id), `201 without a household id${context}`).toBe(true)
  expect(outcome.headers.get('location') ?? '', `201 without Location${context}`).toMatch(new RegExp(`/${id}$`))
  expect(spec.auth.credential?.org, `a write through another organization's key${context}`).toBe('fuzz')
  if (outcome.headers.get('idempotent-replayed') === 'true') {
    expect(checker.created.has(id), `a replay of a household that was never created${context}`).toBe(true)
  } else {
    expect(checker.created.get(id), `the same id created twice${context}`).toBe(1)
  }
}

/** Notes what an answer created, before anything is asserted, so that the final count holds even after a failure. */
function record(checker: Checker, outcome: Outcome): void {
  if (outcome.status !== 201 || outcome.headers.get('idempotent-replayed') === 'true') return
  const household = isRecord(outcome.json) && isRecord(outcome.json.household) ? outcome.json.household : undefined
  if (typeof household?.id === 'string') checker.created.set(household.id, (checker.created.get(household.id) ?? 0) + 1)
}

async function sendAndCheck(checker: Checker, baseUrl: string, spec: RequestSpec): Promise<Outcome> {
  const outcome = await send(baseUrl, spec)
  record(checker, outcome)
  checkOutcome(checker, spec, outcome)
  return outcome
}

/** Checks answers to concurrent requests; replays after the creates they replay, whatever order they arrived in. */
function checkOutcomes(checker: Checker, specs: RequestSpec[], outcomes: Outcome[]): void {
  for (const outcome of outcomes) record(checker, outcome)
  const order = specs.map((_, i) => i)
  const isReplay = (i: number) => outcomes[i]?.headers.get('idempotent-replayed') === 'true'
  order.sort((a, b) => Number(isReplay(a)) - Number(isReplay(b)))
  for (const i of order) {
    const spec = specs[i]
    const outcome = outcomes[i]
    if (!spec || !outcome) throw new Error('a request without its answer')
    checkOutcome(checker, spec, outcome)
  }
}

// ---------------------------------------------------------------------------------------------

async function householdCount(store: TestStore, orgId: string): Promise<{ rows: number; counter: number }> {
  const rows = await store.db
    .selectFrom('households')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('org_id', '=', orgId)
    .executeTakeFirstOrThrow()
  const counts = await householdCounts(store.db, orgId)
  return { rows: rows.n, counter: counts.households }
}

describe.each(storeKinds())('fuzzing the relationship endpoints on %s', (kind) => {
  let store: TestStore
  let app: TestApp
  let fuzzOrgId: string
  let otherOrgId: string
  let credentials: Credential[]
  let otherReader: Credential
  let checker: Checker
  let otherBefore: { list: unknown; count: { rows: number; counter: number } }
  let fuzzBefore: { rows: number; counter: number }

  /** Runs the request property RUNS times; a run cut short by the time limit fails rather than passing quietly. */
  const fuzz = (property: fc.IAsyncProperty<[RequestSpec]>) =>
    fc.assert(property, {
      numRuns: RUNS,
      interruptAfterTimeLimit: PROPERTY_TEST_TIMEOUT_MS - 30_000,
      markInterruptAsFailure: true,
    })

  async function otherOrgList(): Promise<unknown> {
    const response = await call(`${app.url}${RELATIONSHIPS}?pageSize=1000&sortBy=name&sortOrder=asc`, otherReader.key)
    expect(response.status).toBe(200)
    return response.body
  }

  beforeAll(async () => {
    store = await openTestStore(kind)
    // The fuzzing must meet validation and handlers, not the rate limiter (a property below uses the default limit).
    app = await startApp(store, { rateLimitMax: 1_000_000 })

    const fuzzOrg = await createOrgWithKey(store.db, ALL_PERMISSIONS)
    fuzzOrgId = fuzzOrg.orgId
    const make = async (
      label: string,
      permissions: string[],
      options: { expiresAt?: Date; revoke?: boolean } = {},
    ): Promise<Credential> => {
      const key = await createKey(store.db, fuzzOrgId, permissions, options.expiresAt ?? null)
      if (options.revoke) await revokeApiKey(store.db, key.id)
      const active = !options.revoke && options.expiresAt === undefined
      const write = permissions.includes('relationships:write') || permissions.includes('households:write')
      // A write permission implies read.
      const read = write || permissions.includes('relationships:read') || permissions.includes('households:read')
      return { label, key: key.key, active, read, write, org: 'fuzz' }
    }
    const other = await createOrgWithKey(store.db, ['relationships:read', 'households:read'])
    otherOrgId = other.orgId
    otherReader = { label: 'other org reader', key: other.key, active: true, read: true, write: false, org: 'other' }
    credentials = [
      { label: 'all permissions', key: fuzzOrg.key, active: true, read: true, write: true, org: 'fuzz' },
      await make('relationships:read', ['relationships:read']),
      await make('households:read', ['households:read']),
      await make('households:write', ['households:write']),
      await make('relationships:write', ['relationships:write']),
      await make('embed:chart only', ['embed:chart']),
      await make('no permissions', []),
      await make('expired', ALL_PERMISSIONS, { expiresAt: new Date(Date.now() - 60_000) }),
      await make('revoked', ALL_PERMISSIONS, { revoke: true }),
      otherReader,
    ]

    // The other organization has households of its own, which the fuzzing must never touch.
    const otherIds = new Set<string>()
    for (const name of ['Other Org One', 'Other Org Two', 'Another Smith']) {
      const household = await insertHousehold(store.db, otherOrgId, {
        ...EMPTY_FIELDS,
        name,
        metadata: { secret: name },
      })
      otherIds.add(household.id)
    }

    const doc = await (await fetch(`${app.url}/api/v1/openapi.json`)).json()
    const codes = documentedCodes(doc)
    expect(codes.size, 'the OpenAPI description documents its error codes').toBeGreaterThan(5)
    checker = { codes, otherOrgIds: otherIds, created: new Map(), rateLimited: false, windowSeconds: 60 }
    otherBefore = { list: await otherOrgList(), count: await householdCount(store, otherOrgId) }
    fuzzBefore = await householdCount(store, fuzzOrgId)
  })

  afterAll(async () => {
    await app?.close()
    await store?.drop()
  })

  it(
    'GET with random query strings and credentials: documented statuses and error bodies, no 5xx, no hang',
    async () => {
      await fuzz(
        // Query values here may also pass Node's 16 KB limit on the request head.
        fc.asyncProperty(requestArb(credentials, 'GET', true), async (spec) => {
          await sendAndCheck(checker, app.url, spec)
        }),
      )
    },
    PROPERTY_TEST_TIMEOUT_MS,
  )

  it(
    'POST with random bodies, content types, idempotency keys and credentials: documented statuses and error bodies, no 5xx, no hang',
    async () => {
      await fuzz(
        fc.asyncProperty(requestArb(credentials, 'POST'), async (spec) => {
          await sendAndCheck(checker, app.url, spec)
        }),
      )
    },
    PROPERTY_TEST_TIMEOUT_MS,
  )

  it(
    'concurrent batches of random requests are each answered correctly',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(requestArb(credentials, 'any'), { minLength: 2, maxLength: 8 }), async (specs) => {
          checkOutcomes(checker, specs, await Promise.all(specs.map((spec) => send(app.url, spec))))
        }),
        { numRuns: 40, interruptAfterTimeLimit: PROPERTY_TEST_TIMEOUT_MS - 30_000, markInterruptAsFailure: true },
      )
    },
    PROPERTY_TEST_TIMEOUT_MS,
  )

  it(
    'concurrent creates with one Idempotency-Key make one household: replays of its body, 409 for any other body',
    async () => {
      const writer = credentials[0]
      if (!writer) throw new Error('no writer')
      let race = 0
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom(0, 1), { minLength: 2, maxLength: 6 }),
          fc.constantFrom(...PATHS),
          plausibleBodyArb,
          async (which, path, base) => {
            // A key of its own per run (also per shrink step), so that runs never see each other's keys.
            const key = `race-${kind}-${race++}-${Date.now()}`
            const bodies = [
              { ...base, name: 'Race A' },
              { ...base, name: 'Race B' },
            ]
            const specs = which.map((index): RequestSpec => ({
              method: 'POST',
              path,
              query: [],
              auth: { label: writer.label, header: `Bearer ${writer.key}`, credential: writer },
              contentType: 'application/json',
              idempotencyKey: key,
              cookie: undefined,
              body: { kind: 'json', value: bodies[index] },
            }))
            const outcomes = await Promise.all(specs.map((spec) => send(app.url, spec)))
            checkOutcomes(checker, specs, outcomes)
            const created = outcomes.filter((o) => o.status === 201)
            expect(created.length, 'some request created the household').toBeGreaterThan(0)
            const ids = new Set(
              created.map((o) => (isRecord(o.json) && isRecord(o.json.household) ? o.json.household.id : undefined)),
            )
            expect(ids.size, 'every 201 for the key is the same household').toBe(1)
            expect(
              created.filter((o) => o.headers.get('idempotent-replayed') !== 'true').length,
              'exactly one 201 is not a replay',
            ).toBe(1)
            const winner = which[outcomes.findIndex((o) => o.status === 201)]
            outcomes.forEach((o, i) =>
              expect(o.status, `request ${i} (body ${which[i]}, winner ${winner})`).toBe(
                which[i] === winner ? 201 : 409,
              ),
            )
          },
        ),
        { numRuns: 30, interruptAfterTimeLimit: PROPERTY_TEST_TIMEOUT_MS - 30_000, markInterruptAsFailure: true },
      )
    },
    PROPERTY_TEST_TIMEOUT_MS,
  )

  it(
    'with the default rate limit, every 429 comes with resetAt, Retry-After and the error body',
    async () => {
      const defaults = loadConfig({})
      const limited = await startApp(store, {
        rateLimitMax: defaults.rateLimitMax,
        rateLimitWindowSeconds: defaults.rateLimitWindowSeconds,
      })
      try {
        const limitedChecker: Checker = {
          ...checker,
          rateLimited: true,
          windowSeconds: defaults.rateLimitWindowSeconds,
        }
        const key = (await createKey(store.db, fuzzOrgId, ALL_PERMISSIONS)).key
        const spender: Credential = {
          label: 'rate-limited key',
          key,
          active: true,
          read: true,
          write: true,
          org: 'fuzz',
        }
        const pool = [spender, ...credentials.filter((c) => !c.active)]
        let seen429 = 0

        // Spends the credential's budget and the client address's budget for failed authentications.
        const exhaust = async () => {
          for (const authorization of [`Bearer ${key}`, 'Bearer idx_not-a-key']) {
            for (let sent = 0; sent < defaults.rateLimitMax; sent += 25) {
              await Promise.all(
                Array.from({ length: 25 }, async () => {
                  const response = await fetch(`${limited.url}${RELATIONSHIPS}?pageSize=1`, {
                    headers: { authorization },
                    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
                  })
                  await response.arrayBuffer()
                }),
              )
            }
          }
        }
        // Fixed windows: if one ends during the run, spend the next one and try again.
        for (let attempt = 0; attempt < 3 && seen429 === 0; attempt++) {
          await exhaust()
          await fc.assert(
            fc.asyncProperty(requestArb(pool, 'any'), async (spec) => {
              const outcome = await send(limited.url, spec)
              if (outcome.status === 429) seen429++
              record(limitedChecker, outcome)
              checkOutcome(limitedChecker, spec, outcome)
            }),
            { numRuns: 100, interruptAfterTimeLimit: PROPERTY_TEST_TIMEOUT_MS - 60_000, markInterruptAsFailure: true },
          )
        }
        expect(seen429, 'the default limit was reached and answered 429').toBeGreaterThan(0)
      } finally {
        await limited.close()
      }
    },
    PROPERTY_TEST_TIMEOUT_MS,
  )

  it('after the fuzzing, the other organization is unchanged and the fuzzing org has exactly what was created', async () => {
    expect(await householdCount(store, otherOrgId)).toEqual(otherBefore.count)
    expect(await otherOrgList()).toEqual(otherBefore.list)
    const fuzzAfter = await householdCount(store, fuzzOrgId)
    expect(fuzzAfter.rows, 'households in the fuzzing org = before + the 201s that were not replays').toBe(
      fuzzBefore.rows + checker.created.size,
    )
    expect(fuzzAfter.counter, 'the per-org counter agrees with the rows').toBe(fuzzAfter.rows)
    const ids = [...checker.created.keys()]
    const rows = await store.db
      .selectFrom('households')
      .select('id')
      .where('org_id', '=', fuzzOrgId)
      .where('id', 'in', ids.length ? ids : ['00000000-0000-0000-0000-000000000000'])
      .execute()
    expect(rows.length, 'every created household belongs to the fuzzing org').toBe(checker.created.size)
  })

  // Inputs the fuzzing found, pinned so that each one is checked on every run.
  describe('inputs found by fuzzing', () => {
    const reader = () => credentials[0]?.key ?? ''

    it.each(['search=a%00b', 'search=%00'])('a NUL character in search (%s) is not a 5xx', async (query) => {
      const response = await call(`${app.url}${RELATIONSHIPS}?${query}`, reader())
      expect(response.status, JSON.stringify(response.body)).toBeLessThan(500)
      expect([200, 400]).toContain(response.status)
    })

    it.each(['page=Infinity', 'page=-Infinity', 'page=1e309', 'pageSize=Infinity', 'pageSize=-Infinity'])(
      '%s is 400 invalid_query, not a 5xx',
      async (query) => {
        for (const path of PATHS) {
          const response = await call(`${app.url}${path}?${query}`, reader())
          expect(response.status, JSON.stringify(response.body)).toBe(400)
          expect(response.body.code).toBe('invalid_query')
        }
      },
    )

    it.each([
      ['a NUL character in a metadata value', '{"name":"Nul","metadata":{"a":"x\\u0000y"}}'],
      ['a NUL character in a metadata key', '{"name":"Nul","metadata":{"\\u0000":1}}'],
      ['a NUL character deep in metadata', '{"name":"Nul","metadata":{"a":[{"b":"\\u0000"}]}}'],
      ['a lone surrogate in metadata', '{"name":"Surrogate","metadata":{"a":"\\ud800"}}'],
      ['metadata nested 5000 levels deep', deepText('metadata-object', 5000)],
      ['metadata nested 400000 levels deep', deepText('metadata-array', 400_000)],
    ])('%s is a 4xx, not a 5xx', async (_label, text) => {
      const response = await call(`${app.url}${RELATIONSHIPS}`, reader(), { method: 'POST', body: text })
      expect(response.status, JSON.stringify(response.body)).toBeLessThan(500)
      expect([201, 400], JSON.stringify(response.body)).toContain(response.status)
      if (response.status === 400) expect(response.body.code).toBe('invalid_body')
    })

    it('an over-long request line is answered with the documented error body', async () => {
      const response = await fetch(`${app.url}${RELATIONSHIPS}?search=${'a'.repeat(20_000)}`, {
        headers: { authorization: `Bearer ${reader()}` },
      })
      const text = await response.text()
      expect(response.status).toBeGreaterThanOrEqual(400)
      expect(response.status).toBeLessThan(500)
      const body: unknown = JSON.parse(text)
      expect(
        isRecord(body) && typeof body.error === 'string' && typeof body.code === 'string',
        `${response.status} ${text}`,
      ).toBe(true)
    })

    it('a malformed HTTP request is answered with the documented error body', async () => {
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(new URL(app.url).port), '127.0.0.1', () => {
          socket.write(
            `GET ${RELATIONSHIPS} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${reader()}\r\nA header without a colon\r\n\r\n`,
          )
        })
        let data = ''
        socket.setEncoding('utf8')
        socket.on('data', (chunk: string) => (data += chunk))
        socket.on('close', () => resolve(data))
        socket.on('error', () => resolve(data))
        socket.setTimeout(REQUEST_TIMEOUT_MS, () => {
          socket.destroy()
          reject(new Error('no answer to a malformed request'))
        })
      })
      const [head = '', text = ''] = raw.split('\r\n\r\n')
      expect(head).toMatch(/^HTTP\/1\.1 4\d\d /)
      const body: unknown = JSON.parse(text)
      expect(isRecord(body) && typeof body.error === 'string' && typeof body.code === 'string', raw).toBe(true)
    })
  })
})
