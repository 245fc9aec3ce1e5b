// Adding, changing and removing a household's members, with their kinships (member-to-member
// relationships: spouse, partner, exSpouse, parent, with a parent's kind and a couple's dates).
// A member may carry the partner's own id (externalId), unique in its household. Members are part of the household: every
// change claims the household's version, so it moves its ETag. Refusals are thrown as RuleViolation
// (see rule-violation.ts); their `field` points into the member's body.
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import type { Principal } from '../auth/principal.ts'
import type { CreateMemberBody, Kinship, MemberRole, UpdateMemberBody } from '../schemas/member.ts'
import {
  checkMemberFields,
  checkKinshipSet,
  createFieldsOf,
  mergeMemberPatch,
  type KinshipEntry,
  type MemberFields,
  type MemberProblem,
} from '../domain/member-input.ts'
import {
  deleteMember,
  externalIdTaken,
  insertMember,
  memberCount,
  readMemberFields,
  readMemberJson,
  replaceKinships,
  roleTaken,
  updateMember as updateMemberRow,
  type MemberJson,
  type KinshipRefusal,
} from '../store/members.ts'
import type { ExpectedVersions } from '../store/household-record.ts'
import { recordAudit } from '../store/audit.ts'
import { PAYLOAD_LIMITS } from '../../chart/payload.ts'
import { writeHousehold, type Written } from './household-write.ts'
import { householdNotFound, memberNotFound, RuleViolation } from './rule-violation.ts'
import { appendEvents } from '../store/events.ts'
import { watchKin } from '../events/member-kin-events.ts'
import { linkDeletedEvents } from '../events/removed-links.ts'
import { linkIdsOf } from '../store/entity-links.ts'

/** As many people as one chart can draw (chart payload v1), so …/chart always answers. */
export const MEMBERS_MAX = PAYLOAD_LIMITS.people

function refusedMember(problem: MemberProblem): RuleViolation {
  return new RuleViolation(problem.code, problem.message, problem.field)
}

function roleTakenViolation(role: MemberRole): RuleViolation {
  return new RuleViolation(
    'member_role_taken',
    `The household already has a ${role}; there can be one. Change that member's role first.`,
    '/role',
  )
}

function externalIdTakenViolation(externalId: string): RuleViolation {
  return new RuleViolation(
    'member_external_id_taken',
    `Another member of this household already has externalId ${externalId}; send another id, or change that member's first.`,
    '/externalId',
  )
}

/** Refuses an externalId another member of the household has (checked under the household's lock). */
async function checkExternalId(
  trx: Kysely<Database>,
  householdId: string,
  fields: MemberFields,
  memberId?: string,
): Promise<void> {
  if (fields.externalId !== null && (await externalIdTaken(trx, householdId, fields.externalId, memberId)))
    throw externalIdTakenViolation(fields.externalId)
}

/** The kinship set of a body (ids lower-cased, details filled in, repeats dropped), or a refusal of an entry. */
function kinshipsOf(
  memberId: string | undefined,
  relationships: readonly Kinship[] | null | undefined,
): KinshipEntry[] | undefined {
  if (relationships === undefined) return undefined
  const checked = checkKinshipSet(memberId, relationships ?? [])
  if (!checked.ok) throw refusedMember(checked)
  return checked.relationships
}

/** A refusal of the store's kinship checks, pointing at the first entry of the body that names that member. */
function refusedKinship(refusal: KinshipRefusal, sent: readonly Kinship[]): RuleViolation {
  const index =
    refusal.memberId === undefined ? -1 : sent.findIndex((r) => r.memberId.toLowerCase() === refusal.memberId)
  return new RuleViolation(
    refusal.code,
    refusal.message,
    index < 0 ? '/relationships' : `/relationships/${index}/memberId`,
  )
}

/** A unique_violation of this index (pg and PGlite both name it in the message). */
function violatesIndex(error: unknown, index: string): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  return code === '23505' && typeof message === 'string' && message.includes(index)
}

/**
 * Runs a member write; a second primaryClient or coClient, or a repeated externalId, that got past
 * the check (a write that does not hold the household lock, such as a bulk load) is still
 * member_role_taken or member_external_id_taken, not a 500.
 */
async function guardingUniques<T>(
  run: () => Promise<T>,
  role: MemberRole | undefined,
  externalId: string | null | undefined,
): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (role !== undefined && violatesIndex(error, 'members_one_')) throw roleTakenViolation(role)
    if (typeof externalId === 'string' && violatesIndex(error, 'members_external_id'))
      throw externalIdTakenViolation(externalId)
    throw error
  }
}

export interface AddMemberInput {
  householdId: string
  /** The household's versions the caller read (If-Match), or '*' when it sent none. */
  expected: ExpectedVersions
  body: CreateMemberBody
}

export interface AddedMember {
  memberId: string
  member: MemberJson
  /** The household's new version. */
  version: number
}

export async function addMember(
  db: Kysely<Database>,
  principal: Principal,
  input: AddMemberInput,
): Promise<AddedMember> {
  const { householdId, body } = input
  const checked = checkMemberFields(createFieldsOf(body))
  if (!checked.ok) throw refusedMember(checked)
  const fields = checked.fields
  const sent = body.relationships ?? []
  const kinships = kinshipsOf(undefined, sent) ?? []
  const { orgId } = principal
  const written = await guardingUniques(
    () =>
      writeHousehold(db, { orgId, id: householdId, expected: input.expected }, async (trx) => {
        if (await roleTaken(trx, householdId, fields.role)) throw roleTakenViolation(fields.role)
        await checkExternalId(trx, householdId, fields)
        if ((await memberCount(trx, householdId)) >= MEMBERS_MAX) {
          throw new RuleViolation('household_members_limit', `A household has at most ${MEMBERS_MAX} members.`, '')
        }
        const kin = await watchKin(
          trx,
          householdId,
          undefined,
          kinships.map((kinship) => kinship.memberId),
        )
        const memberId = await insertMember(trx, householdId, fields)
        const replaced = await replaceKinships(trx, householdId, memberId, kinships)
        if (!replaced.ok) throw refusedKinship(replaced, sent)
        const changed: string[] = (Object.keys(fields) as (keyof MemberFields)[]).filter((key) => fields[key] !== null)
        if (kinships.length > 0) changed.push('relationships')
        await recordAudit(trx, { actor: principal, action: 'member.create', householdId, memberId, changed })
        const member = await readMemberJson(trx, orgId, householdId, memberId)
        if (member) {
          const events = [{ type: 'member.created', resources: { member: member.body } } as const]
          await appendEvents(trx, { orgId, householdId, events: [...events, ...(await kin.changed())] })
        }
        return { memberId, member }
      }),
    fields.role,
    fields.externalId,
  )
  if (!written.value.member) throw householdNotFound()
  return { memberId: written.value.memberId, member: written.value.member, version: written.version }
}

export interface UpdateMemberInput {
  householdId: string
  memberId: string
  expected: ExpectedVersions
  /** A JSON merge patch of the member; relationships, when sent, is the member's whole new kinship set. */
  patch: UpdateMemberBody
}

/** Applies the patch; answers the member as JSON with the household's new version. */
export async function updateMember(
  db: Kysely<Database>,
  principal: Principal,
  input: UpdateMemberInput,
): Promise<Written<MemberJson>> {
  const { householdId, memberId, patch } = input
  // The rules of each sent field, before taking the household's lock; the merged member again inside.
  const alone = checkMemberFields(
    mergeMemberPatch(
      { name: 'unchanged', role: 'other', birthDate: null, deathDate: null, email: null, externalId: null },
      patch,
    ),
  )
  if (!alone.ok) throw refusedMember(alone)
  const sent = patch.relationships ?? []
  const kinships = kinshipsOf(memberId, patch.relationships)
  const { orgId } = principal
  const written = await guardingUniques(
    () =>
      writeHousehold(db, { orgId, id: householdId, expected: input.expected }, async (trx) => {
        const current = await readMemberFields(trx, householdId, memberId)
        if (!current) throw memberNotFound()
        const merged = checkMemberFields(mergeMemberPatch(current, patch))
        if (!merged.ok) throw refusedMember(merged)
        if (merged.fields.role !== current.role && (await roleTaken(trx, householdId, merged.fields.role, memberId)))
          throw roleTakenViolation(merged.fields.role)
        if (merged.fields.externalId !== current.externalId)
          await checkExternalId(trx, householdId, merged.fields, memberId)
        const kin =
          kinships === undefined
            ? undefined
            : await watchKin(
                trx,
                householdId,
                memberId,
                kinships.map((kinship) => kinship.memberId),
              )
        await updateMemberRow(trx, memberId, merged.fields)
        if (kinships !== undefined) {
          const replaced = await replaceKinships(trx, householdId, memberId, kinships)
          if (!replaced.ok) throw refusedKinship(replaced, sent)
        }
        await recordAudit(trx, {
          actor: principal,
          action: 'member.update',
          householdId,
          memberId,
          changed: Object.keys(patch),
        })
        const member = await readMemberJson(trx, orgId, householdId, memberId)
        if (member) {
          const events = [{ type: 'member.updated', resources: { member: member.body } } as const]
          await appendEvents(trx, { orgId, householdId, events: [...events, ...((await kin?.changed()) ?? [])] })
        }
        return member
      }),
    patch.role,
    patch.externalId,
  )
  if (!written.value) throw memberNotFound()
  return { value: written.value, version: written.version }
}

export interface RemoveMemberInput {
  householdId: string
  memberId: string
  expected: ExpectedVersions
}

/** Removes the member and every kinship to them; answers the household's new version. */
export async function removeMember(
  db: Kysely<Database>,
  principal: Principal,
  input: RemoveMemberInput,
): Promise<{ version: number }> {
  const { householdId, memberId } = input
  const written = await writeHousehold(
    db,
    { orgId: principal.orgId, id: householdId, expected: input.expected },
    async (trx) => {
      const kin = await watchKin(trx, householdId, memberId, [])
      const links = await linkIdsOf(trx, householdId, memberId)
      if (!(await deleteMember(trx, householdId, memberId))) throw memberNotFound()
      await recordAudit(trx, { actor: principal, action: 'member.delete', householdId, memberId, changed: [] })
      await appendEvents(trx, {
        orgId: principal.orgId,
        householdId,
        events: [
          { type: 'member.deleted', resources: { memberId: JSON.stringify(memberId) } },
          ...(await kin.changed()),
          ...linkDeletedEvents(links),
        ],
      })
    },
  )
  return { version: written.version }
}
