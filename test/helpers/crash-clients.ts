// Clients that write households while servers are killed under them, and the ledger of what was
// acknowledged: a check that every acknowledged write is still there, with consistent counts.
//
// Each client loop owns the households it creates and writes them one request at a time, always
// under If-Match (a create under an Idempotency-Key), so a retry after a lost answer can never apply
// twice. A request whose answer did not arrive (connection refused or reset, a 5xx) is "unknown":
// it may or may not have been applied. The client then reads the household (a create: retries with
// the same key) and carries on. Only a 2xx answer is an acknowledgement.
import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { expect } from 'vitest'
import { sql, type Kysely } from 'kysely'
import type { Database } from '../../src/store/tables.ts'

/** The API origins the clients spread their requests over; a restarted server replaces its entry. */
export class Targets {
  private urls: string[]
  private wake: (() => void)[] = []

  constructor(urls: string[]) {
    this.urls = [...urls]
  }

  list(): readonly string[] {
    return this.urls
  }

  /** Replaces one origin (a restarted server listens on a new port) and wakes waiting clients. */
  set(index: number, url: string): void {
    this.urls[index] = url
    this.notify()
  }

  /** Resolves at the next set() or notify(). */
  changed(): Promise<void> {
    return new Promise((resolve) => this.wake.push(resolve))
  }

  notify(): void {
    const waiting = this.wake
    this.wake = []
    for (const resolve of waiting) resolve()
  }
}

/** What the clients know of one household they created. */
export interface HouseholdRecord {
  id: string
  createName: string
  /** The version of the last acknowledged write (a lower bound of the version now). */
  ackVersion: number
  /** Names it may have now: the last acknowledged one and those of later PATCHes whose outcome is unknown. */
  names: Set<string>
  /** Ids of acknowledged members. */
  ackMembers: Set<string>
  /** Names of every member add sent (acknowledged or unknown); each applies at most once. */
  memberNames: Set<string>
  /** PATCHes acknowledged, and distinct PATCHes sent (each applies at most once: If-Match). */
  ackPatches: number
  sentPatches: number
}

export class Ledger {
  readonly households = new Map<string, HouseholdRecord>()
  /** Names of creates sent whose acknowledgement has not (yet) come. */
  readonly unknownCreates = new Set<string>()
  /** Every create name sent. */
  readonly createNames = new Set<string>()
  acks = 0
  readonly acksByTarget = new Map<string, number>()
  /** Requests that got no answer (refused, reset) and 5xx answers. */
  lost = 0
  lastLost = ''
  readonly serverErrors: string[] = []
  readonly inFlight = new Map<string, number>()

  acked(url: string): void {
    this.acks++
    this.acksByTarget.set(url, (this.acksByTarget.get(url) ?? 0) + 1)
  }

  /** For a timeout's message. */
  state(): string {
    const map = (m: Map<string, number>) => JSON.stringify(Object.fromEntries(m))
    return `${this.acks} acknowledged (by origin ${map(this.acksByTarget)}), ${this.lost} lost (last: ${this.lastLost}), in flight ${map(this.inFlight)}, 5xx: ${this.serverErrors.slice(-3).join('; ')}`
  }

  inFlightAt(url: string): number {
    return this.inFlight.get(url) ?? 0
  }

  /** A deep copy, for checking while the clients keep writing. */
  snapshot(): Map<string, HouseholdRecord> {
    const copy = new Map<string, HouseholdRecord>()
    for (const [id, h] of this.households) {
      copy.set(id, {
        ...h,
        names: new Set(h.names),
        ackMembers: new Set(h.ackMembers),
        memberNames: new Set(h.memberNames),
      })
    }
    return copy
  }
}

type Answer = { ok: true; status: number; headers: Headers; body: Record<string, unknown> } | { ok: false; why: string }

function versionOf(headers: Headers): number {
  const etag = headers.get('etag') ?? ''
  const version = /^"(\d+)"$/.exec(etag)?.[1]
  if (version === undefined) throw new Error(`no strong ETag in the answer: ${JSON.stringify(etag)}`)
  return Number(version)
}

export interface ClientOptions {
  targets: Targets
  ledger: Ledger
  key: string
  /** Household names start with this (unique per test). */
  label: string
  /** Set to stop the loops after the household each is writing. */
  stopping: () => boolean
}

/** One client loop: create a household, add 1–3 members, rename it 1–2 times; again until stopped. */
async function clientLoop(client: number, options: ClientOptions): Promise<void> {
  const { targets, ledger, key, label } = options
  let turn = client
  let failuresInARow = 0
  const suspect = new Set<string>()

  /** Sends one request to the next origin in turn; no answer (or a 5xx) is { ok: false }. */
  async function send(
    path: string,
    init: { method: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Answer & { url: string }> {
    const urls = targets.list()
    // Round robin over the origins, skipping those whose last request got no answer (unless all did).
    const healthy = urls.filter((u) => !suspect.has(u))
    const choices = healthy.length > 0 ? healthy : urls
    const url = choices[turn++ % choices.length] ?? ''
    ledger.inFlight.set(url, ledger.inFlightAt(url) + 1)
    try {
      const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...init.headers }
      if (init.body !== undefined) headers['content-type'] = 'application/json'
      const response = await fetch(`${url}${path}`, {
        method: init.method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      })
      const text = await response.text()
      if (response.status >= 500) {
        ledger.serverErrors.push(`${init.method} ${path} → ${response.status} ${text}`)
        suspect.add(url)
        return { ok: false, why: `${response.status}`, url }
      }
      failuresInARow = 0
      suspect.delete(url)
      return {
        ok: true,
        status: response.status,
        headers: response.headers,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
        url,
      }
    } catch (error) {
      suspect.add(url)
      return { ok: false, why: String((error as { cause?: unknown }).cause ?? error), url }
    } finally {
      ledger.inFlight.set(url, ledger.inFlightAt(url) - 1)
    }
  }

  /** After a lost request: go on at once while some origin may answer; when none did, wait for a change. False: stop. */
  async function mayRetry(answer: Answer): Promise<boolean> {
    if (answer.ok) return true
    ledger.lost++
    ledger.lastLost = answer.why
    failuresInARow++
    if (failuresInARow < targets.list().length) return true
    failuresInARow = 0
    // No origin answered a whole round: wait until one is replaced (a restart), or give up when stopping.
    if (options.stopping()) return false
    await targets.changed()
    return true
  }

  function unexpected(what: string, answer: Answer): Error {
    return new Error(
      `${what}: unexpected answer ${answer.ok ? `${answer.status} ${JSON.stringify(answer.body)}` : answer.why}`,
    )
  }

  /** Reads the household as it is now; checks that no acknowledged write is missing. */
  async function read(
    h: HouseholdRecord,
  ): Promise<{ version: number; name: string; memberNames: string[] } | undefined> {
    for (;;) {
      const answer = await send(`/api/v1/relationships/${h.id}`, { method: 'GET' })
      if (answer.ok) {
        if (answer.status !== 200) throw unexpected(`GET of acknowledged household ${h.id} (${h.createName})`, answer)
        const household = answer.body.household as { name: string; members: { id: string; name: string }[] }
        const version = versionOf(answer.headers)
        const ids = new Set(household.members.map((m) => m.id))
        const missing = [...h.ackMembers].filter((id) => !ids.has(id))
        if (version < h.ackVersion || missing.length > 0 || !h.names.has(household.name)) {
          throw new Error(
            `acknowledged write lost (seen through ${answer.url}): household ${h.id} is at version ${version} named ${JSON.stringify(household.name)} with members ${JSON.stringify([...ids])}; acknowledged: version ${h.ackVersion}, names ${JSON.stringify([...h.names])}, members ${JSON.stringify([...h.ackMembers])}`,
          )
        }
        return { version, name: household.name, memberNames: household.members.map((m) => m.name) }
      }
      if (!(await mayRetry(answer))) return undefined
    }
  }

  async function create(name: string): Promise<HouseholdRecord | undefined> {
    const idempotencyKey = randomUUID()
    ledger.createNames.add(name)
    ledger.unknownCreates.add(name)
    for (;;) {
      const answer = await send('/api/v1/relationships', {
        method: 'POST',
        body: { name },
        headers: { 'idempotency-key': idempotencyKey },
      })
      if (answer.ok) {
        if (answer.status !== 201) throw unexpected(`create ${name}`, answer)
        const household = answer.body.household as { id: string; name: string }
        expect(household.name).toBe(name)
        const h: HouseholdRecord = {
          id: household.id,
          createName: name,
          // A replay carries no ETag (the household may have changed since); 1 is still a lower bound.
          ackVersion: answer.headers.get('idempotent-replayed') === 'true' ? 1 : versionOf(answer.headers),
          names: new Set([name]),
          ackMembers: new Set(),
          memberNames: new Set(),
          ackPatches: 0,
          sentPatches: 0,
        }
        ledger.households.set(h.id, h)
        ledger.unknownCreates.delete(name)
        ledger.acked(answer.url)
        return h
      }
      if (!(await mayRetry(answer))) return undefined
    }
  }

  /** Adds a member under If-Match; after a lost answer, reads whether it was applied. The new version; undefined: stopped unresolved. */
  async function addMember(h: HouseholdRecord, name: string, version: number): Promise<number | undefined> {
    h.memberNames.add(name)
    let expected = version
    for (;;) {
      const answer = await send(`/api/v1/relationships/${h.id}/members`, {
        method: 'POST',
        body: { name, role: 'child' },
        headers: { 'if-match': `"${expected}"` },
      })
      if (answer.ok && answer.status === 201) {
        const now = versionOf(answer.headers)
        h.ackMembers.add((answer.body.member as { id: string }).id)
        h.ackVersion = Math.max(h.ackVersion, now)
        ledger.acked(answer.url)
        return now
      }
      if (answer.ok && answer.status !== 412) throw unexpected(`add member ${name}`, answer)
      if (!answer.ok && !(await mayRetry(answer))) return undefined
      // Lost, or 412 (a lost earlier attempt committed after all): was it applied?
      const seen = await read(h)
      if (!seen) return undefined
      if (seen.memberNames.includes(name)) return seen.version
      expected = seen.version
    }
  }

  /** Renames under If-Match; after a lost answer, reads whether it was applied. */
  async function rename(h: HouseholdRecord, name: string, version: number): Promise<number | undefined> {
    h.sentPatches++
    h.names.add(name)
    let expected = version
    for (;;) {
      const answer = await send(`/api/v1/relationships/${h.id}`, {
        method: 'PATCH',
        body: { name },
        headers: { 'if-match': `"${expected}"` },
      })
      if (answer.ok && answer.status === 200) {
        const now = versionOf(answer.headers)
        expect((answer.body.household as { name: string }).name).toBe(name)
        h.ackVersion = Math.max(h.ackVersion, now)
        h.ackPatches++
        h.names = new Set([name])
        ledger.acked(answer.url)
        return now
      }
      if (answer.ok && answer.status !== 412) throw unexpected(`rename to ${name}`, answer)
      if (!answer.ok && !(await mayRetry(answer))) return undefined
      const seen = await read(h)
      if (!seen) return undefined
      if (seen.name === name) return seen.version
      expected = seen.version
    }
  }

  for (let n = 0; !options.stopping(); n++) {
    const name = `${label} c${client} h${n}`
    const h = await create(name)
    if (!h) return
    let version: number | undefined = h.ackVersion
    for (let m = 0; m < 1 + (n % 3) && version !== undefined; m++)
      version = await addMember(h, `${name} m${m}`, version)
    for (let p = 0; p < 1 + (n % 2) && version !== undefined; p++) version = await rename(h, `${name} v${p}`, version)
    if (version === undefined) return
  }
}

export interface Clients {
  /** Waits until the condition holds; throws at once if a client loop failed (a lost write, say). */
  until(condition: () => boolean, what: string, timeoutMs?: number): Promise<void>
  /** Stops the loops after their current household and waits for them. */
  stop(): Promise<void>
  /** Tells the loops to stop without waiting (after a failed test, when the servers are gone). */
  abandon(): void
}

/** Runs `count` client loops until stop(). */
export function startClients(count: number, options: Omit<ClientOptions, 'stopping'>): Clients {
  let stopping = false
  let failure: { error: unknown } | undefined
  const loops = Array.from({ length: count }, (_, client) =>
    clientLoop(client, { ...options, stopping: () => stopping }).catch((error: unknown) => {
      failure ??= { error }
      stopping = true
      options.targets.notify()
      throw error
    }),
  )
  const done = Promise.all(loops).then(() => undefined)
  done.catch(() => {
    // Observed in until() and stop().
  })
  return {
    until: async (condition, what, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs
      while (!condition()) {
        if (failure) throw failure.error
        if (Date.now() > deadline) throw new Error(`${what}: not after ${timeoutMs} ms; ${options.ledger.state()}`)
        await sleep(10)
      }
      if (failure) throw failure.error
    },
    stop: async () => {
      stopping = true
      options.targets.notify()
      await done
    },
    abandon: () => {
      stopping = true
      options.targets.notify()
    },
  }
}

/**
 * What the API says: the unfiltered list (total, counts) through each origin, and each household in
 * full with its ETag. `settled`: nobody writes meanwhile, so the name must be one the ledger allows.
 */
export async function checkThroughApi(
  expected: Map<string, HouseholdRecord>,
  urls: readonly string[],
  key: string,
  settled: boolean,
): Promise<{ total: number }> {
  let total = 0
  for (const url of urls) {
    const response = await fetch(`${url}/api/v1/relationships?pageSize=1000`, {
      headers: { authorization: `Bearer ${key}` },
    })
    expect(response.status).toBe(200)
    const list = (await response.json()) as {
      total: number
      households: { id: string; name: string; members: unknown[]; counts: { members: number } }[]
    }
    expect(list.households.length).toBeLessThan(1000)
    expect(list.total, `list total through ${url}`).toBe(list.households.length)
    total = list.total
    for (const item of list.households)
      expect(item.counts.members, `counts.members of ${item.name}`).toBe(item.members.length)
    const listed = new Set(list.households.map((item) => item.id))
    const missing = [...expected.values()].filter((h) => !listed.has(h.id)).map((h) => `${h.id} (${h.createName})`)
    expect(missing, `acknowledged households missing from the list through ${url}`).toEqual([])
  }
  const records = [...expected.values()]
  let next = 0
  const worker = async (index: number) => {
    for (let i = next++; i < records.length; i = next++) {
      const h = records[i]!
      const url = urls[(i + index) % urls.length] ?? ''
      const response = await fetch(`${url}/api/v1/relationships/${h.id}`, {
        headers: { authorization: `Bearer ${key}` },
      })
      expect(response.status, `GET ${h.id} (${h.createName}) through ${url}`).toBe(200)
      const { household } = (await response.json()) as {
        household: { name: string; members: { id: string; name: string }[]; counts: { members: number } }
      }
      const version = Number(/^"(\d+)"$/.exec(response.headers.get('etag') ?? '')?.[1])
      expect(version, `version of ${h.createName}`).toBeGreaterThanOrEqual(h.ackVersion)
      if (settled) expect([...h.names], `name of ${h.createName}`).toContain(household.name)
      expect(household.counts.members).toBe(household.members.length)
      const ids = new Set(household.members.map((m) => m.id))
      expect(
        [...h.ackMembers].filter((id) => !ids.has(id)),
        `acknowledged members of ${h.createName}`,
      ).toEqual([])
    }
  }
  await Promise.all(Array.from({ length: 8 }, (_, index) => worker(index)))
  return { total }
}

interface HouseholdRow {
  id: string
  name: string
  version: number
  member_count: number
  assignment_count: number
  members: number
  assignments: number
  search_ok: boolean
}

/**
 * What the database holds for the org. `settled`: the clients have stopped (or are all waiting on a
 * dead server), so the exact bounds hold; otherwise only what no later write can undo is checked.
 */
export async function checkDatabase(
  db: Kysely<Database>,
  orgId: string,
  expected: Map<string, HouseholdRecord>,
  ledger: Ledger,
  settled: boolean,
): Promise<void> {
  // One transaction (REPEATABLE READ on PostgreSQL), so that rows and counters are one snapshot.
  const { rows, members, counted, openClaims } = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => ({
      rows: (
        await sql<HouseholdRow>`
        SELECT h.id, h.name, h.version, h.member_count, h.assignment_count,
          (SELECT count(*) FROM members m WHERE m.household_id = h.id) AS members,
          (SELECT count(*) FROM assignments a WHERE a.household_id = h.id) AS assignments,
          h.search_text = household_search_text(h) AS search_ok
        FROM households h WHERE h.org_id = ${orgId}`.execute(trx)
      ).rows,
      members: (
        await sql<{ id: string; household_id: string; name: string }>`
        SELECT m.id, m.household_id, m.name FROM members m JOIN households h ON h.id = m.household_id WHERE h.org_id = ${orgId}`.execute(
          trx,
        )
      ).rows,
      // The store parses int8 and numeric (count, sum) to numbers.
      counted:
        (
          await sql<{
            n: number | null
          }>`SELECT sum(households) AS n FROM org_household_counts WHERE org_id = ${orgId}`.execute(trx)
        ).rows[0]?.n ?? 0,
      // Claimed in the create's transaction and completed before it commits: never left open.
      openClaims: Number(
        (
          await sql<{
            n: number
          }>`SELECT count(*) AS n FROM idempotency_keys WHERE org_id = ${orgId} AND response IS NULL`.execute(trx)
        ).rows[0]?.n,
      ),
    }))

  // Counters kept by the triggers agree with the rows, for every household, acknowledged or not.
  expect(counted, 'org_household_counts total').toBe(rows.length)
  expect(openClaims, 'idempotency keys claimed but never completed').toBe(0)
  const inconsistent = rows.filter(
    (r) => r.member_count !== r.members || r.assignment_count !== r.assignments || !r.search_ok,
  )
  expect(inconsistent, 'households whose counters or search text disagree with their rows').toEqual([])

  const byId = new Map(rows.map((r) => [r.id, r]))
  const membersOf = new Map<string, { id: string; name: string }[]>()
  for (const m of members) membersOf.set(m.household_id, [...(membersOf.get(m.household_id) ?? []), m])

  // Every acknowledged write is there.
  for (const h of expected.values()) {
    const row = byId.get(h.id)
    if (!row) throw new Error(`acknowledged household ${h.id} (${h.createName}) is missing from the database`)
    expect(row.version, `version of ${h.createName}`).toBeGreaterThanOrEqual(h.ackVersion)
    const ids = new Set((membersOf.get(h.id) ?? []).map((m) => m.id))
    expect(
      [...h.ackMembers].filter((id) => !ids.has(id)),
      `acknowledged members of ${h.createName}`,
    ).toEqual([])
  }

  // Nothing else: every household comes from a create a client sent (renames end in " v<n>").
  const createNameOf = (r: HouseholdRow) => expected.get(r.id)?.createName ?? r.name.replace(/ v\d+$/, '')
  expect(
    rows.filter((r) => !ledger.createNames.has(createNameOf(r))).map((r) => r.name),
    'households no client sent',
  ).toEqual([])
  if (!settled) return

  const created = new Map<string, number>()
  for (const r of rows) {
    const record = expected.get(r.id)
    const createName = createNameOf(r)
    created.set(createName, (created.get(createName) ?? 0) + 1)
    if (!record) {
      // Never acknowledged: its create's answer was lost and the loops stopped before a retry got one.
      expect(ledger.unknownCreates.has(createName), `${r.name}: a household that no pending create explains`).toBe(true)
      continue
    }
    expect([...record.names], `name of ${record.createName}`).toContain(r.name)
    const present = membersOf.get(r.id) ?? []
    const presentNames = present.map((m) => m.name)
    expect(new Set(presentNames).size, `members of ${record.createName} added twice`).toBe(presentNames.length)
    expect(
      presentNames.filter((name) => !record.memberNames.has(name)),
      `members of ${record.createName} no client sent`,
    ).toEqual([])
    // Each write moves the version by one: create, each member present, each rename applied.
    const renames = r.version - 1 - present.length
    expect(
      renames,
      `renames applied to ${record.createName} (version ${r.version}, ${present.length} members)`,
    ).toBeGreaterThanOrEqual(record.ackPatches)
    expect(
      renames,
      `renames applied to ${record.createName} (version ${r.version}, ${present.length} members)`,
    ).toBeLessThanOrEqual(record.sentPatches)
  }
  const twice = [...created].filter(([, count]) => count > 1).map(([name]) => name)
  expect(twice, 'creates applied twice (a retry under the same Idempotency-Key made a second household)').toEqual([])
}
