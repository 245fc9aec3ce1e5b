// `hearth users add|list` and `hearth audit`, with no server running, on an embedded PGlite directory
// and on PostgreSQL (DATABASE_URL): users made with the CLI are assigned over HTTP, and the audit log
// shows who changed which household, when, and which fields — never values.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASE_URL, requirePart } from '../helpers/environment.ts'
import { call, createKey, startApp } from '../helpers/app.ts'
import { expectOneLineError, hearth, hearthJson, killAll, lines, UUID } from '../helpers/cli.ts'
import { pgliteTarget, postgresTarget, type Target } from '../helpers/cli-targets.ts'

const TIMEOUT = 120_000

function auditStory(makeTarget: () => Promise<Target>): void {
  let target: Target
  let env: Record<string, string>
  let orgId = ''
  let otherOrgId = ''
  let userId = ''
  let keyId = ''
  let householdId = ''
  let entityId = ''
  let otherHouseholdId = ''

  beforeAll(async () => {
    target = await makeTarget()
    env = target.env
    if (env.DATABASE_URL) expect((await hearth(['migrate'], env)).code).toBe(0)
  }, TIMEOUT)

  afterAll(async () => {
    await killAll()
    await target?.cleanup()
  }, TIMEOUT)

  it(
    'users add creates a user of the organization once per email; users list shows them',
    async () => {
      const [org, other] = await Promise.all([
        hearthJson(['orgs', 'create', '--name', 'Audited Advisors'], env),
        hearthJson(['orgs', 'create', '--name', 'Elsewhere'], env),
      ])
      orgId = String(org.id)
      otherOrgId = String(other.id)
      const added = await hearthJson(
        ['users', 'add', '--org', orgId, '--email', 'Ann@Example.com', '--name', ' Ann Advisor '],
        env,
      )
      expect(added).toMatchObject({
        id: expect.stringMatching(UUID),
        email: 'Ann@Example.com',
        name: 'Ann Advisor',
        role: 'advisor',
      })
      userId = String(added.id)
      const [human, unnamed, again, elsewhere, missingOrg] = await Promise.all([
        hearth(
          ['users', 'add', '--org', orgId, '--email', 'ben@example.com', '--name', 'Ben Admin', '--role', 'admin'],
          env,
        ),
        // The issue's own command: no --name; the invitation is named after the address until then.
        hearthJson(['users', 'add', '--org', orgId, '--email', 'cleo.viewer@example.com', '--role', 'viewer'], env),
        hearth(['users', 'add', '--org', orgId, '--email', 'ann@example.COM', '--name', 'Ann Again'], env),
        // Emails are unique per organization only.
        hearthJson(['users', 'add', '--org', otherOrgId, '--email', 'ann@example.com', '--name', 'Other Ann'], env),
        hearth(['users', 'add', '--org', randomUUID(), '--email', 'x@example.com', '--name', 'X'], env),
      ])
      expect(human.code, human.stderr).toBe(0)
      expect(human.stdout).toMatch(/^Added admin "Ben Admin" <ben@example.com> with id [0-9a-f-]{36}\n$/)
      expectOneLineError(again, 2, 'the organization already has a user with the email ann@example.COM')
      expect(unnamed).toMatchObject({ email: 'cleo.viewer@example.com', name: 'cleo.viewer', role: 'viewer' })
      expect(elsewhere.role).toBe('advisor')
      expectOneLineError(missingOrg, 2, 'no organization has the id')

      const [listed, table] = await Promise.all([
        hearthJson(['users', 'list', '--org', orgId], env),
        hearth(['users', 'list', '--org', orgId], env),
      ])
      expect((listed.users as Record<string, unknown>[]).map((u) => [u.name, u.role]).sort()).toEqual([
        ['Ann Advisor', 'advisor'],
        ['Ben Admin', 'admin'],
        ['cleo.viewer', 'viewer'],
      ])
      expect(lines(table.stdout)[0]).toMatch(/^ID\s+NAME\s+EMAIL\s+ROLE\s+CREATED$/)
    },
    TIMEOUT,
  )

  it(
    'writes over HTTP land in the audit log: key as actor, action, household, changed field names',
    async () => {
      const { store, release } = await target.open()
      try {
        const key = await createKey(store.db, orgId)
        const otherKey = await createKey(store.db, otherOrgId)
        keyId = key.id
        const app = await startApp(store)
        try {
          const created = await call(`${app.url}/api/v1/relationships`, key.key, { body: { name: 'Audit Family' } })
          householdId = (created.body.household as { id: string }).id
          const read = await call(`${app.url}/api/v1/relationships/${householdId}`, key.key)
          const patched = await call(`${app.url}/api/v1/relationships/${householdId}`, key.key, {
            method: 'PATCH',
            body: { metadata: { secret: 'do-not-log' }, dsueReceived: 10 },
            headers: { 'if-match': read.headers.get('etag') ?? '' },
          })
          expect(patched.status).toBe(200)
          const trust = await call(`${app.url}/api/v1/relationships/${householdId}/entities`, key.key, {
            body: { name: 'Audit Family Trust', kind: 'revocableTrust', notes: 'private-note' },
            headers: { 'if-match': patched.headers.get('etag') ?? '' },
          })
          expect(trust.status, JSON.stringify(trust.body)).toBe(201)
          entityId = (trust.body.entity as { id: string }).id
          const assigned = await call(`${app.url}/api/v1/relationships/${householdId}/assignments`, key.key, {
            method: 'PUT',
            body: { assignments: [{ userId, role: 'leadAdvisor' }] },
            headers: { 'if-match': trust.headers.get('etag') ?? '' },
          })
          expect(assigned.status, JSON.stringify(assigned.body)).toBe(200)
          const other = await call(`${app.url}/api/v1/relationships`, otherKey.key, { body: { name: 'Other Family' } })
          otherHouseholdId = (other.body.household as { id: string }).id
          const otherRead = await call(`${app.url}/api/v1/relationships/${otherHouseholdId}`, otherKey.key)
          await call(`${app.url}/api/v1/relationships/${otherHouseholdId}`, otherKey.key, {
            method: 'PATCH',
            body: { name: 'Renamed' },
            headers: { 'if-match': otherRead.headers.get('etag') ?? '' },
          })
        } finally {
          await app.close()
        }
      } finally {
        await store.close()
        release()
      }

      const json = await hearthJson(['audit', '--org', orgId], env)
      const entries = json.entries as Record<string, unknown>[]
      expect(entries).toEqual([
        {
          at: expect.any(String),
          actorType: 'apiKey',
          actorId: keyId,
          action: 'household.create',
          householdId,
          memberId: null,
          entityId: null,
          linkId: null,
          changed: ['name'],
        },
        {
          at: expect.any(String),
          actorType: 'apiKey',
          actorId: keyId,
          action: 'household.update',
          householdId,
          memberId: null,
          entityId: null,
          linkId: null,
          changed: ['dsueReceived', 'metadata'],
        },
        {
          at: expect.any(String),
          actorType: 'apiKey',
          actorId: keyId,
          action: 'entity.create',
          householdId,
          memberId: null,
          entityId,
          linkId: null,
          changed: ['kind', 'name', 'notes'],
        },
        {
          at: expect.any(String),
          actorType: 'apiKey',
          actorId: keyId,
          action: 'assignments.set',
          householdId,
          memberId: null,
          entityId: null,
          linkId: null,
          changed: ['assignments'],
        },
      ])
      expect(JSON.stringify(json)).not.toContain('do-not-log')
      expect(JSON.stringify(json)).not.toContain('private-note')
      expect(JSON.stringify(json)).not.toContain(otherHouseholdId)
      for (const e of entries) expect(Number.isNaN(Date.parse(String(e.at)))).toBe(false)

      const [text, limited, byHousehold, elsewhere, none, missingOrg] = await Promise.all([
        hearth(['audit', '--org', orgId], env),
        hearthJson(['audit', '--org', orgId, '--limit', '1'], env),
        hearthJson(['audit', '--org', otherOrgId, '--household', householdId], env),
        hearthJson(['audit', '--org', otherOrgId, '--household', otherHouseholdId.toUpperCase()], env),
        hearth(['audit', '--org', orgId, '--household', randomUUID()], env),
        hearth(['audit', '--org', randomUUID()], env),
      ])
      expect(text.code, text.stderr).toBe(0)
      const rows = lines(text.stdout).map((line) => line.split(/\s{2,}/))
      expect(rows[0]).toEqual(['TIME', 'ACTOR', 'ACTION', 'HOUSEHOLD', 'SUBJECT', 'CHANGED'])
      expect(rows.at(-1)?.slice(1)).toEqual([`apiKey ${keyId}`, 'assignments.set', householdId, '-', 'assignments'])
      expect(rows.at(-2)?.slice(1)).toEqual([
        `apiKey ${keyId}`,
        'entity.create',
        householdId,
        `entity ${entityId}`,
        'kind,name,notes',
      ])
      expect(rows.at(-3)?.slice(1)).toEqual([
        `apiKey ${keyId}`,
        'household.update',
        householdId,
        '-',
        'dsueReceived,metadata',
      ])
      // --limit keeps the newest entries.
      expect((limited.entries as Record<string, unknown>[]).map((e) => e.action)).toEqual(['assignments.set'])
      // Another organization never sees this household's entries, even by its id.
      expect(byHousehold.entries).toEqual([])
      expect((elsewhere.entries as Record<string, unknown>[]).filter((e) => e.action === 'household.update')).toEqual([
        expect.objectContaining({ householdId: otherHouseholdId, changed: ['name'] }),
      ])
      expect(none.code, none.stderr).toBe(0)
      expect(none.stdout.trim()).toBe('No audit entries.')
      expect(missingOrg.stdout).toBe('')
      expectOneLineError(missingOrg, 2, 'no organization has the id')
    },
    TIMEOUT,
  )
}

describe('hearth users and hearth audit on an embedded PGlite directory', () => {
  auditStory(pgliteTarget)
})

const hasPostgres = requirePart(
  'PostgreSQL',
  DATABASE_URL !== undefined,
  'set DATABASE_URL=postgres://… to also test the CLI on PostgreSQL',
)

describe.runIf(hasPostgres)('hearth users and hearth audit on PostgreSQL (DATABASE_URL)', () => {
  auditStory(postgresTarget)
})
