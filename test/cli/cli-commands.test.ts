// The admin commands with no server running, on an embedded PGlite directory (the CLI takes the
// directory's lock itself) and on PostgreSQL (DATABASE_URL). Each describe is one story on one
// fresh database; its tests run in order and build on each other.
import { existsSync, rmSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { openStore } from '../../src/store/db.ts'
import { readMigrations } from '../../src/store/migrate.ts'
import { lockPathOf } from '../../src/operator/data-dir-lock.ts'
import { SAMPLE_HOUSEHOLDS } from '../../src/domain/sample-households.ts'
import { DATABASE_URL, requirePart } from '../helpers/environment.ts'
import { freshPgliteDir } from '../helpers/stores.ts'
import { call, startApp } from '../helpers/app.ts'
import {
  expectEndsAfterGivingBack,
  expectOneLineError,
  hearth,
  HearthProcess,
  hearthJson,
  KEY,
  killAll,
  lastJson,
  lines,
  until,
  UUID,
} from '../helpers/cli.ts'
import { pgliteTarget, postgresTarget, type Target } from '../helpers/cli-targets.ts'

const TIMEOUT = 120_000
const SAMPLES = SAMPLE_HOUSEHOLDS.length

function adminCommandStory(kind: Target['kind'], makeTarget: () => Promise<Target>): void {
  let target: Target
  let env: Record<string, string>
  let orgId = ''
  let revokedKey = { id: '', key: '' }
  let keptKey = { id: '', key: '' }

  beforeAll(async () => {
    target = await makeTarget()
    env = target.env
  }, TIMEOUT)

  afterAll(async () => {
    await killAll()
    await target?.cleanup()
  }, TIMEOUT)

  let pgliteMigrate: HearthProcess | undefined

  it(
    'migrate reports what it applied, then that nothing is left',
    async () => {
      const all = readMigrations().map((m) => `${String(m.version).padStart(4, '0')}_${m.name}`)
      const current = Math.max(...readMigrations().map((m) => m.version))
      if (kind === 'pglite') {
        // The directory is a copy of a migrated template. The command does not end (see the next
        // test), so its answer is read as soon as it is printed.
        pgliteMigrate = new HearthProcess(['migrate', '--json'], env)
        const proc = pgliteMigrate
        await until(
          () => proc.exit !== undefined || proc.stdout.endsWith('\n'),
          'hearth migrate printed nothing',
          TIMEOUT,
        )
        expect(lastJson({ code: 0, signal: null, stdout: proc.stdout, stderr: proc.stderr })).toEqual({
          applied: [],
          current,
        })
        return
      }
      // The PostgreSQL database is empty. Two migrates at once: each migration's transaction takes the
      // advisory lock and looks again under it, so each migration is applied by exactly one of them
      // (which one takes which is a race), and both end at the current version.
      const [json, human] = await Promise.all([hearthJson(['migrate'], env), hearth(['migrate'], env)])
      expect(human.code, human.stderr).toBe(0)
      expect(json.current).toBe(current)
      const said = human.stdout.trim()
      const appliedLine = /^Applied (.+); the schema is at version (\d+)\.$/.exec(said)
      const saidNothing = said === `Nothing to apply; the schema is at version ${current}.`
      expect(saidNothing || appliedLine?.[2] === String(current), said).toBe(true)
      const byHuman = appliedLine?.[1]?.split(', ') ?? []
      expect([...(json.applied as string[]), ...byHuman].sort()).toEqual(all)
    },
    TIMEOUT,
  )

  if (kind === 'pglite') {
    // Store.close() must close PGlite even when Kysely never ran a query (hearth migrate runs none).
    it(
      'migrate ends, and does not hold the database files once it gave the lock back',
      async () => {
        const proc = pgliteMigrate
        if (!proc) throw new Error('the migrate test did not run')
        const exit = await expectEndsAfterGivingBack(proc, env.HEARTH_DATA_DIR ?? '', () => proc.stdout.endsWith('\n'))
        expect(exit.code).toBe(0)
      },
      TIMEOUT,
    )
  }

  it(
    'orgs create --json prints exactly one JSON object {id, name} as the last line',
    async () => {
      // Never leave a lingering migrate next to the commands below (when the test above was filtered out).
      await pgliteMigrate?.stop('SIGKILL')
      const [result, human] = await Promise.all([
        hearth(['orgs', 'create', '--name', '  Acme Advisors  ', '--json'], env),
        hearth(['orgs', 'create', '--name', 'Beta Partners'], env),
      ])
      expect(result.code, result.stderr).toBe(0)
      expect(result.stderr).toBe('')
      const created = lastJson(result)
      expect(Object.keys(created).sort()).toEqual(['id', 'name'])
      expect(created.name).toBe('Acme Advisors')
      expect(created.id).toMatch(UUID)
      orgId = String(created.id)
      expect(human.code, human.stderr).toBe(0)
      expect(human.stdout).toMatch(/^Created organization "Beta Partners" with id [0-9a-f-]{36}\n$/)

      const [listed, table] = await Promise.all([hearthJson(['orgs', 'list'], env), hearth(['orgs', 'list'], env)])
      expect(listed.orgs).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: orgId, name: 'Acme Advisors', households: 0 }),
          expect.objectContaining({ name: 'Beta Partners', households: 0 }),
        ]),
      )
      expect(listed.orgs).toHaveLength(2)
      expect(lines(table.stdout)[0]).toMatch(/^ID\s+NAME\s+HOUSEHOLDS$/)
      expect(table.stdout).toContain(orgId)
    },
    TIMEOUT,
  )

  it(
    'keys create prints {id, key, permissions} with a well-formed key, once',
    async () => {
      const [created, human] = await Promise.all([
        hearthJson(
          [
            'keys',
            'create',
            '--org',
            orgId,
            '--permissions',
            'relationships:read,embed:chart',
            '--name',
            'Reporting',
            '--expires-in-days',
            '30',
          ],
          env,
        ),
        hearth(['keys', 'create', '--org', orgId, '--permissions', 'households:read'], env),
      ])
      expect(created).toMatchObject({
        id: expect.stringMatching(UUID),
        key: expect.stringMatching(KEY),
        permissions: ['relationships:read', 'embed:chart'],
        name: 'Reporting',
      })
      const expiresIn = Date.parse(String(created.expiresAt)) - Date.now()
      expect(expiresIn).toBeGreaterThan(29 * 86_400_000)
      expect(expiresIn).toBeLessThanOrEqual(30 * 86_400_000)
      revokedKey = { id: String(created.id), key: String(created.key) }

      // Without --json: the key on a line of its own, and the warning that it is shown once.
      expect(human.code, human.stderr).toBe(0)
      expect(human.stdout).toContain('Copy it now: it is not shown again.')
      const key = lines(human.stdout)
        .map((line) => line.trim())
        .find((line) => KEY.test(line))
      expect(key, human.stdout).toBeDefined()
      const id = /\(id ([0-9a-f-]{36})\)/.exec(human.stdout)?.[1]
      expect(id).toMatch(UUID)
      keptKey = { id: id ?? '', key: key ?? '' }
    },
    TIMEOUT,
  )

  it(
    "keys list shows each key's prefix but never the key",
    async () => {
      const [json, table] = await Promise.all([
        hearth(['keys', 'list', '--org', orgId, '--json'], env),
        hearth(['keys', 'list', '--org', orgId], env),
      ])
      expect(json.code, json.stderr).toBe(0)
      expect(table.code, table.stderr).toBe(0)
      for (const { key } of [revokedKey, keptKey]) {
        // Nothing past the visible prefix (idx_ and 8 characters) is ever printed.
        const secret = key.slice(12)
        for (const output of [json.stdout, table.stdout]) expect(output).not.toContain(secret)
        expect(table.stdout).toContain(`${key.slice(0, 12)}…`)
      }
      const listed = lastJson(json).keys as Record<string, unknown>[]
      // Both keys were created at the same time, in no particular order.
      expect(listed.map((k) => [k.id, k.prefix, k.revokedAt]).sort()).toEqual(
        [
          [revokedKey.id, revokedKey.key.slice(0, 12), null],
          [keptKey.id, keptKey.key.slice(0, 12), null],
        ].sort(),
      )
      for (const k of listed) expect(Object.keys(k)).not.toEqual(expect.arrayContaining(['key']))
      expect(JSON.stringify(listed)).not.toMatch(/hash|secret/i)
      expect(lines(table.stdout)[0]).toMatch(/^ID\s+PREFIX\s+NAME\s+PERMISSIONS\s+LAST USED\s+EXPIRES\s+REVOKED$/)
    },
    TIMEOUT,
  )

  it(
    'keys revoke revokes at once and keeps the first time when repeated',
    async () => {
      const revoked = await hearthJson(['keys', 'revoke', revokedKey.id], env)
      expect(revoked.id).toBe(revokedKey.id)
      expect(Number.isNaN(Date.parse(String(revoked.revokedAt)))).toBe(false)
      const [again, list, unknown] = await Promise.all([
        hearth(['keys', 'revoke', revokedKey.id], env),
        hearthJson(['keys', 'list', '--org', orgId], env),
        hearth(['keys', 'revoke', randomUUID()], env),
      ])
      expect(again.code, again.stderr).toBe(0)
      expect(again.stdout).toContain(`Revoked API key ${revokedKey.id} at `)
      const listed = list.keys as Record<string, unknown>[]
      expect(listed.find((k) => k.id === revokedKey.id)?.revokedAt).toBe(revoked.revokedAt)
      expect(listed.find((k) => k.id === keptKey.id)?.revokedAt).toBeNull()
      expectOneLineError(unknown, 2, 'no API key has the id')
    },
    TIMEOUT,
  )

  it(
    'origins add, list and remove: stored in normal form, duplicates and absences reported',
    async () => {
      const added = await hearthJson(['origins', 'add', '--org', orgId, '--origin', 'https://app.example.com'], env)
      expect(added).toEqual({ origin: 'https://app.example.com', added: true })
      const [duplicate, local] = await Promise.all([
        // The same origin with the spaces a paste brings along is the same origin.
        hearth(['origins', 'add', '--org', orgId, '--origin', '  https://app.example.com '], env),
        hearthJson(['origins', 'add', '--org', orgId, '--origin', 'http://localhost:5173'], env),
      ])
      expect(duplicate.code, duplicate.stderr).toBe(0)
      expect(duplicate.stdout.trim()).toBe('https://app.example.com was already registered')
      expect(local).toEqual({ origin: 'http://localhost:5173', added: true })

      expect(await hearthJson(['origins', 'list', '--org', orgId], env)).toEqual({
        origins: ['http://localhost:5173', 'https://app.example.com'],
      })

      expect(await hearthJson(['origins', 'remove', '--org', orgId, '--origin', 'http://localhost:5173'], env)).toEqual(
        { origin: 'http://localhost:5173', removed: true },
      )
      const [absent, list] = await Promise.all([
        hearth(['origins', 'remove', '--org', orgId, '--origin', 'http://localhost:5173'], env),
        hearth(['origins', 'list', '--org', orgId], env),
      ])
      expect(absent.code, absent.stderr).toBe(0)
      expect(absent.stdout.trim()).toBe('http://localhost:5173 was not registered')
      expect(list.stdout.trim()).toBe('https://app.example.com')
    },
    TIMEOUT,
  )

  it(
    'samples add adds the sample households once; the second time adds 0',
    async () => {
      expect(await hearthJson(['samples', 'add', '--org', orgId], env)).toEqual({ added: SAMPLES, skipped: 0 })
      const [again, list] = await Promise.all([
        hearth(['samples', 'add', '--org', orgId], env),
        hearthJson(['orgs', 'list'], env),
      ])
      expect(again.code, again.stderr).toBe(0)
      expect(again.stdout.trim()).toBe(`Added 0 sample households (${SAMPLES} were already there)`)
      const orgs = list.orgs as Record<string, unknown>[]
      expect(orgs.find((o) => o.id === orgId)?.households).toBe(SAMPLES)
    },
    TIMEOUT,
  )

  it(
    'usage reports chart mints and renders per frame origin per UTC day, from --since on',
    async () => {
      const { store, release } = await target.open()
      try {
        const mint = (origin: string, mintedAt: string, renderedAt: string | null) => ({
          jti: randomUUID(),
          org_id: orgId,
          key_id: randomUUID(),
          frame_origin: origin,
          created_at: new Date(mintedAt),
          rendered_at: renderedAt === null ? null : new Date(renderedAt),
        })
        await store.db
          .insertInto('chart_mints')
          .values([
            mint('https://a.example', '2026-02-28T12:00:00Z', '2026-02-28T12:00:01Z'), // before --since
            mint('https://a.example', '2026-03-01T23:58:00Z', '2026-03-02T00:01:00Z'), // rendered the next UTC day
            mint('https://a.example', '2026-03-02T10:00:00Z', '2026-03-02T10:00:05Z'),
            mint('https://a.example', '2026-03-02T11:00:00Z', null), // never reached a chart
            mint('https://b.example', '2026-03-02T12:00:00Z', '2026-03-02T12:00:01Z'),
          ])
          .execute()
      } finally {
        await store.close()
        release()
      }
      expect(await hearthJson(['usage', '--org', orgId, '--since', '2026-03-01'], env)).toEqual({
        since: '2026-03-01',
        days: [
          { day: '2026-03-01', frameOrigin: 'https://a.example', mints: 1, renders: 0 },
          { day: '2026-03-02', frameOrigin: 'https://a.example', mints: 2, renders: 2 },
          { day: '2026-03-02', frameOrigin: 'https://b.example', mints: 1, renders: 1 },
        ],
      })
      const [text, none, badDay, notADate, missingOrg, tooEarly] = await Promise.all([
        hearth(['usage', '--org', orgId, '--since', '2026-03-02'], env),
        hearth(['usage', '--org', orgId, '--since', '2030-01-01'], env),
        hearth(['usage', '--org', orgId, '--since', '2026-02-30'], env),
        hearth(['usage', '--org', orgId, '--since', 'yesterday'], env),
        hearth(['usage', '--org', randomUUID()], env),
        hearth(['usage', '--org', orgId, '--since', '0000-01-01'], env),
      ])
      expect(text.code, text.stderr).toBe(0)
      expect(lines(text.stdout).map((line) => line.split(/\s{2,}/))).toEqual([
        ['Chart usage since 2026-03-02 (UTC days; a render is a token that reached a chart):'],
        [''],
        ['DAY', 'FRAME ORIGIN', 'MINTS', 'RENDERS'],
        ['2026-03-02', 'https://a.example', '2', '2'],
        ['2026-03-02', 'https://b.example', '1', '1'],
        ['TOTAL', '3', '3'],
      ])
      expect(none.stdout.trim()).toBe('No chart tokens minted since 2030-01-01.')
      expectOneLineError(badDay, 2, '--since must be a date YYYY-MM-DD (UTC) from 2000-01-01 on, got "2026-02-30"')
      expectOneLineError(notADate, 2, '--since must be a date YYYY-MM-DD (UTC) from 2000-01-01 on, got "yesterday"')
      expectOneLineError(tooEarly, 2, '--since must be a date YYYY-MM-DD (UTC) from 2000-01-01 on, got "0000-01-01"')
      expectOneLineError(missingOrg, 2, 'no organization has the id')
    },
    TIMEOUT,
  )

  it(
    'doctor --rebuild-list-items finds every stored list item right, and refuses to run without being told what to do',
    async () => {
      // The samples above were written set-based; their items were kept by the trigger as they were.
      const [checked, human, bare] = await Promise.all([
        hearthJson(['doctor', '--rebuild-list-items'], env),
        hearth(['doctor', '--rebuild-list-items'], env),
        hearth(['doctor'], env),
      ])
      expect(checked).toEqual({ checked: SAMPLES, rebuilt: 0 })
      expect(human.code, human.stderr).toBe(0)
      expect(human.stdout.trim()).toBe(`All ${SAMPLES} list items match their households.`)
      expect(bare.stdout).toBe('')
      expectOneLineError(bare, 2, 'say what to do: hearth doctor --rebuild-list-items')
    },
    TIMEOUT,
  )

  it(
    'an organization id that does not exist is exit 2 with one line',
    async () => {
      const missing = randomUUID()
      const results = await Promise.all([
        hearth(['keys', 'create', '--org', missing, '--permissions', 'relationships:read'], env),
        hearth(['origins', 'add', '--org', missing, '--origin', 'https://app.example.com'], env),
        hearth(['samples', 'add', '--org', missing], env),
      ])
      for (const result of results) {
        expect(result.stdout).toBe('')
        expectOneLineError(result, 2, `no organization has the id ${missing}; "hearth orgs list" shows them`)
      }
    },
    TIMEOUT,
  )

  it(
    "orgs limits shows the budgets in force, sets the operator's overrides, resets them, and refuses bad numbers",
    async () => {
      const budget = (limit: number, operatorOverride: number | null) => ({
        limit,
        ceiling: limit,
        operatorOverride,
        adminLowered: null,
      })
      expect(await hearthJson(['orgs', 'limits', '--org', orgId], env)).toEqual({
        orgId,
        windowSeconds: 60,
        organization: budget(1800, null),
        perCredential: budget(600, null),
      })
      const set = await hearth(['orgs', 'limits', '--org', orgId, '--requests', '5000', '--key-requests', '900'], env)
      expect(set.code, set.stderr).toBe(0)
      expect(
        lines(set.stdout)
          .slice(2)
          .map((line) => line.split(/\s{2,}/)),
      ).toEqual([
        ['BUDGET', 'IN FORCE', 'OPERATOR ALLOWS', 'LOWERED BY ITS ADMINS'],
        ['organization', '5000', '5000 (set for this organization)', '-'],
        ['each API key', '900', '900 (set for this organization)', '-'],
      ])
      // One flag changes only its own budget.
      expect((await hearthJson(['orgs', 'limits', '--org', orgId, '--key-requests', '7'], env)).perCredential).toEqual(
        budget(7, 7),
      )
      expect((await hearthJson(['orgs', 'limits', '--org', orgId, '--reset'], env)).organization).toEqual(
        budget(1800, null),
      )
      // Left set for the last test, which sees them in the API's headers.
      const kept = await hearthJson(
        ['orgs', 'limits', '--org', orgId, '--requests', '5000', '--key-requests', '7'],
        env,
      )
      expect(kept).toMatchObject({ organization: budget(5000, 5000), perCredential: budget(7, 7) })
      expectOneLineError(
        await hearth(['orgs', 'limits', '--org', orgId, '--requests', '0'], env),
        2,
        '--requests must be a whole number from 1 to',
      )
      expectOneLineError(
        await hearth(['orgs', 'limits', '--org', orgId, '--key-requests', 'many'], env),
        2,
        '--key-requests must be a whole number of units',
      )
      expectOneLineError(
        await hearth(['orgs', 'limits', '--org', orgId, '--reset', '--requests', '5'], env),
        2,
        '--reset goes back to the instance defaults',
      )
    },
    TIMEOUT,
  )

  it(
    'what the commands did is in the database: the kept key lists the samples over HTTP, the revoked key gets 401',
    async () => {
      if (kind === 'pglite')
        expect(existsSync(lockPathOf(env.HEARTH_DATA_DIR ?? '')), 'a command left its lock behind').toBe(false)
      const { store, release } = await target.open()
      try {
        const app = await startApp(store)
        try {
          const kept = await call(`${app.url}/api/v1/relationships?pageSize=100`, keptKey.key)
          expect(kept.status).toBe(200)
          // hearth orgs limits: the organization's overrides come with the key, and replace the instance's defaults.
          expect(kept.headers.get('ratelimit-policy')).toBe('"default";q=7;w=60, "org";q=5000;w=60')
          expect(kept.body.total).toBe(SAMPLES)
          const revoked = await call(`${app.url}/api/v1/relationships`, revokedKey.key)
          expect(revoked.status).toBe(401)
          expect(revoked.body.code).toBe('api_key_revoked')
        } finally {
          await app.close()
        }
      } finally {
        await store.close()
        release()
      }
    },
    TIMEOUT,
  )
}

describe('admin commands on an embedded PGlite directory with no server', () => {
  adminCommandStory('pglite', pgliteTarget)
})

const hasPostgres = requirePart(
  'PostgreSQL',
  DATABASE_URL !== undefined,
  'set DATABASE_URL=postgres://… to also test the CLI on PostgreSQL',
)

describe.runIf(hasPostgres)('admin commands on PostgreSQL (DATABASE_URL)', () => {
  adminCommandStory('postgres', postgresTarget)
})

// A failing migration must close PGlite, so the command exits and lets go of the files.
describe('a database hearth cannot migrate', () => {
  it(
    'the command says why, exits 1 and lets go of the files',
    async () => {
      const dataDir = freshPgliteDir()
      try {
        const store = await openStore({ dataDir })
        await sql`UPDATE schema_migrations SET checksum = 'edited'`.execute(store.db)
        await store.close()
        const proc = new HearthProcess(['orgs', 'list'], { HEARTH_DATA_DIR: dataDir })
        const exit = await expectEndsAfterGivingBack(proc, dataDir, () => proc.stderr.endsWith('\n'))
        expect(proc.stderr).toContain('was changed after it was applied; add a new migration instead')
        expect(exit).toEqual({ code: 1, signal: null })
      } finally {
        await killAll()
        rmSync(dataDir, { recursive: true, force: true })
      }
    },
    TIMEOUT,
  )
})
