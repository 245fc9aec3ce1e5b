// Adding, changing and removing the links of a household's estate (who holds what). Links are part
// of the household: every change claims the household's version (writeHousehold), which also holds
// the household's row lock, so the rules that read other links (shares summing to at most 100, no
// ownership cycle, no duplicate) see every earlier write: two concurrent writes that would together
// close a cycle are serialized and the second is refused. Refusals are RuleViolations whose field
// points into the link's body. checkLink is exported so that a chart import applies the same rules
// to each link of its payload, inside its own transaction.
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import type { Principal } from '../auth/principal.ts'
import type { CreateLinkBody, Link, UpdateLinkBody } from '../schemas/entity-link.ts'
import {
  BENEFICIARY_TYPES,
  ESTATE_LIMITS,
  isParty,
  LINK_TYPES,
  linkTargetMismatch,
  OWNING_LINK_TYPES,
  PARTY_REFUSED_FROM_LINK_TYPES,
  PARTY_REFUSED_LINK_TYPES,
  SHARED_LINK_TYPES,
  type BeneficiaryType,
  type EntityKind,
  type LinkType,
} from '../domain/estate-vocabulary.ts'
import {
  deleteLink as deleteLinkRow,
  insertLink,
  linkCount,
  linkExists,
  linkTypesOf,
  ownsThroughChain,
  readLink,
  readLinkRow,
  resolveLinkEnd,
  sharesOf,
  updateLinkShare,
  type LinkEnd,
  type LinkRow,
} from '../store/entity-links.ts'
import type { ExpectedVersions } from '../store/household-record.ts'
import { recordAudit } from '../store/audit.ts'
import { isUuid } from '../domain/ids.ts'
import { writeHousehold, type Written } from './household-write.ts'
import { linkNotFound, RuleViolation } from './rule-violation.ts'
import { appendEvents } from '../store/events.ts'
import { linkDeletedEvents } from '../events/removed-links.ts'

/** Shares are stored as numeric(7,4): a percentage with at most 4 decimals. */
const SHARE_UNITS = 10_000
const FULL = 100 * SHARE_UNITS

/** What to send instead when a link's type does not fit its entity's kind (link_kind_mismatch). */
const INSTEAD_OF_MISMATCHED: Partial<Record<LinkType, string>> = {
  insured: 'link the insured person to the policy',
  generalPartner: 'use owner for other entities',
  limitedPartner: 'use owner for other entities',
}
const INSTEAD_OF_FIDUCIARY = 'use owner for a holding or a business entity'

function isShare(value: number): boolean {
  return Number.isFinite(value) && value > 0 && value <= 100 && /^\d+(\.\d{1,4})?$/.test(String(value))
}

/** The share and beneficiaryType rules of one link alone (no other link read). */
function checkShareFields(
  type: LinkType,
  share: number | null,
  beneficiaryType: BeneficiaryType | null,
  sent: { share: boolean; beneficiaryType: boolean },
  at: string,
): void {
  if (share !== null && !isShare(share))
    throw new RuleViolation(
      'invalid_body',
      'share is a percentage in (0, 100] with at most 4 decimals, e.g. 50 or 33.3333.',
      `${at}/share`,
    )
  if (share !== null && !SHARED_LINK_TYPES.has(type))
    throw new RuleViolation(
      'link_share_not_allowed',
      `A ${type} link has no share; send share only for beneficiary, owner, generalPartner and limitedPartner links.`,
      sent.share ? `${at}/share` : `${at}/type`,
    )
  if (beneficiaryType !== null && !(BENEFICIARY_TYPES as readonly string[]).includes(beneficiaryType))
    throw new RuleViolation(
      'invalid_body',
      `beneficiaryType is one of ${BENEFICIARY_TYPES.join(', ')}.`,
      `${at}/beneficiaryType`,
    )
  if (beneficiaryType !== null && type !== 'beneficiary')
    throw new RuleViolation(
      'link_share_not_allowed',
      `A ${type} link has no beneficiaryType; send beneficiaryType only for beneficiary links.`,
      sent.beneficiaryType ? `${at}/beneficiaryType` : `${at}/type`,
    )
}

/**
 * What the link rules read of the household besides the link itself: where its ends are, the links
 * it has. The links API reads them from the stored rows (storedLinkFacts); a household document,
 * which writes a household whole, from the links it has accepted so far (src/households/
 * document-links.ts), so that both apply exactly the rules below.
 */
export interface LinkFacts {
  resolveEnd(id: string): Promise<LinkEnd>
  exists(row: LinkRow): Promise<boolean>
  count(): Promise<number>
  /** The entity's owners' and primary beneficiaries' shares, in ten-thousandths of a percent, leaving out one link. */
  shares(toEntityId: string, exceptLinkId?: string): Promise<{ owners: number; primaryBeneficiaries: number }>
  /** Whether `ownedId` already owns `ownerId`, directly or through a chain. */
  ownsThroughChain(ownedId: string, ownerId: string): Promise<boolean>
}

/** The link facts of a household's stored rows (inside a transaction that holds its lock). */
function storedLinkFacts(trx: Kysely<Database>, householdId: string, knownLinkCount?: number): LinkFacts {
  return {
    resolveEnd: (id) => resolveLinkEnd(trx, householdId, id),
    exists: (row) => linkExists(trx, householdId, row),
    count: async () => knownLinkCount ?? (await linkCount(trx, householdId)),
    shares: (toEntityId, exceptLinkId) => sharesOf(trx, toEntityId, exceptLinkId),
    ownsThroughChain: (ownedId, ownerId) => ownsThroughChain(trx, householdId, ownedId, ownerId),
  }
}

/** Refuses a share that would take the entity's owners' (or its primary beneficiaries') shares past 100. */
async function checkShareSums(
  facts: LinkFacts,
  link: Pick<LinkRow, 'toEntityId' | 'type' | 'share' | 'beneficiaryType'>,
  at: string,
  exceptLinkId?: string,
): Promise<void> {
  if (link.share === null) return
  const owning = OWNING_LINK_TYPES.has(link.type)
  const primary = link.type === 'beneficiary' && link.beneficiaryType === 'primary'
  if (!owning && !primary) return
  const sums = await facts.shares(link.toEntityId, exceptLinkId)
  const others = owning ? sums.owners : sums.primaryBeneficiaries
  const share = Math.round(link.share * SHARE_UNITS)
  if (others + share <= FULL) return
  const left = (FULL - others) / SHARE_UNITS
  const whose = owning ? "owners' and partners'" : "primary beneficiaries'"
  throw new RuleViolation(
    'link_shares_exceed',
    `The ${whose} shares of this entity would add up to ${(others + share) / SHARE_UNITS} %, more than 100; at most ${left} % is left. Lower this share or the others first.`,
    `${at}/share`,
  )
}

/**
 * Checks one new link against every rule, inside a transaction that holds the household's lock
 * (writeHousehold, or a chart import's), and answers the row to insert. `at` is the JSON Pointer of
 * the link in the caller's body ('' for a link's own body, '/links/3' in a chart payload): each
 * refusal's field is `at` followed by the link field it is about.
 */
export function checkLink(
  trx: Kysely<Database>,
  householdId: string,
  body: CreateLinkBody,
  at = '',
  /** How many links the household holds now, when the caller knows (an import counts as it inserts). */
  knownLinkCount?: number,
): Promise<LinkRow> {
  return checkLinkAgainst(storedLinkFacts(trx, householdId, knownLinkCount), body, at)
}

/** checkLink against the facts given (see LinkFacts). */
export async function checkLinkAgainst(facts: LinkFacts, body: CreateLinkBody, at = ''): Promise<LinkRow> {
  const { type } = body
  if (!(LINK_TYPES as readonly string[]).includes(type))
    throw new RuleViolation('invalid_body', `type is one of ${LINK_TYPES.join(', ')}.`, `${at}/type`)
  const share = body.share ?? null
  const beneficiaryType = body.beneficiaryType ?? (type === 'beneficiary' ? 'primary' : null)
  checkShareFields(
    type,
    share,
    beneficiaryType,
    { share: body.share != null, beneficiaryType: body.beneficiaryType != null },
    at,
  )
  for (const end of ['from', 'to'] as const) {
    if (!isUuid(body[end]))
      throw new RuleViolation('invalid_body', `${end} is the id (a UUID) of a member or an entity.`, `${at}/${end}`)
  }
  const fromId = body.from.toLowerCase()
  const toId = body.to.toLowerCase()
  if (fromId === toId) {
    throw OWNING_LINK_TYPES.has(type)
      ? new RuleViolation(
          'link_ownership_cycle',
          'An entity cannot own itself; to names the same entity as from.',
          `${at}/to`,
        )
      : new RuleViolation(
          'invalid_body',
          'A link joins two different records; to names the same entity as from.',
          `${at}/to`,
        )
  }

  const from = await facts.resolveEnd(fromId)
  const to = await facts.resolveEnd(toId)
  for (const [end, resolved] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (resolved.is === 'nothing')
      throw new RuleViolation('not_found', `${end} names no member or entity of your organization.`, `${at}/${end}`)
    if (resolved.is === 'otherHousehold')
      throw new RuleViolation(
        'link_target_other_household',
        `${end} names a member or entity of another household; a link joins members and entities of this household.`,
        `${at}/${end}`,
      )
  }
  if (to.is !== 'entity')
    throw new RuleViolation(
      'invalid_body',
      'to names a member; a link goes to an entity (a trust, business, charity, holding or party) of this household.',
      `${at}/to`,
    )
  if (isParty(to.kind) && PARTY_REFUSED_LINK_TYPES.has(type))
    throw new RuleViolation(
      'link_party_owned',
      `A party (corporate trustee, attorney's firm) holds nothing, so it cannot have a ${type}; a party may be a trustee or successorTrustee of a trust.`,
      `${at}/to`,
    )
  if (from.is === 'entity' && isParty(from.kind) && PARTY_REFUSED_FROM_LINK_TYPES.has(type))
    throw new RuleViolation(
      'link_party_owned',
      `from is a party (corporate trustee, attorney's firm): it holds nothing, so it cannot own or benefit from an entity as its ${type}; name the member or entity that does, or link the party as trustee or successorTrustee.`,
      `${at}/from`,
    )
  const targets = linkTargetMismatch(type, to.kind)
  if (targets !== undefined)
    throw new RuleViolation(
      'link_kind_mismatch',
      `${type} links go to ${targets} only; ${INSTEAD_OF_MISMATCHED[type] ?? INSTEAD_OF_FIDUCIARY}.`,
      `${at}/type`,
    )

  const row: LinkRow = {
    fromMemberId: from.is === 'member' ? fromId : null,
    fromEntityId: from.is === 'entity' ? fromId : null,
    toEntityId: toId,
    type,
    share,
    beneficiaryType,
  }
  if (await facts.exists(row))
    throw new RuleViolation(
      'link_duplicate',
      `from is already ${type} of this entity; change that link (PATCH) instead of adding another.`,
      `${at}/type`,
    )
  if ((await facts.count()) >= ESTATE_LIMITS.links)
    throw new RuleViolation(
      'household_links_limit',
      `A household has at most ${ESTATE_LIMITS.links} links; remove one before adding another.`,
      at,
    )
  await checkShareSums(facts, row, at)
  if (row.fromEntityId !== null && OWNING_LINK_TYPES.has(type) && (await facts.ownsThroughChain(toId, fromId)))
    throw new RuleViolation(
      'link_ownership_cycle',
      'to already owns from (directly or through other entities), so from cannot own to: no entity owns itself through a chain.',
      `${at}/to`,
    )
  return row
}

/**
 * Refuses a change of an entity's kind to `kind` that a link it already has would not fit: a party
 * cannot be owned, a beneficiary's entity or insured, nor own or benefit from another entity
 * (link_party_owned), and each link to it must still fit its kind (link_kind_mismatch, the rule
 * checkLink applies). Inside the entity write's transaction, with the household's lock held. The
 * refusals point at /kind in the entity's body.
 */
export async function checkKindKeepsLinks(trx: Kysely<Database>, entityId: string, kind: EntityKind): Promise<void> {
  const types = await linkTypesOf(trx, entityId)
  if (isParty(kind)) {
    const held = types.to.find((type) => PARTY_REFUSED_LINK_TYPES.has(type))
    if (held !== undefined)
      throw new RuleViolation(
        'link_party_owned',
        `A ${kind} is a party and holds nothing, but this entity has a ${held} link to it: remove those links first, or keep a kind that holds value.`,
        '/kind',
      )
    const holding = types.from.find((type) => PARTY_REFUSED_FROM_LINK_TYPES.has(type))
    if (holding !== undefined)
      throw new RuleViolation(
        'link_party_owned',
        `A ${kind} is a party and holds nothing, but this entity is the ${holding} of another entity: remove those links first, or keep a kind that holds value.`,
        '/kind',
      )
  }
  for (const type of types.to) {
    const targets = linkTargetMismatch(type, kind)
    if (targets !== undefined)
      throw new RuleViolation(
        'link_kind_mismatch',
        `This entity has a ${type} link, and ${type} links go to ${targets} only: remove its ${type} links first, or choose a kind they fit.`,
        '/kind',
      )
  }
}

export interface CreateLinkInput {
  householdId: string
  /** The household's versions the caller read (If-Match), or '*' when it sent none. */
  expected: ExpectedVersions
  body: CreateLinkBody
}

export async function createLink(
  db: Kysely<Database>,
  principal: Principal,
  input: CreateLinkInput,
): Promise<Written<Link>> {
  const { householdId, body } = input
  return writeHousehold(db, { orgId: principal.orgId, id: householdId, expected: input.expected }, async (trx) => {
    const row = await checkLink(trx, householdId, body)
    const linkId = await insertLink(trx, householdId, row)
    const changed = Object.entries(body)
      .filter(([, value]) => value !== null)
      .map(([key]) => key)
    await recordAudit(trx, { actor: principal, action: 'link.create', householdId, linkId, changed })
    return withEvent(trx, principal.orgId, householdId, 'link.created', await readOrThrow(trx, householdId, linkId))
  })
}

/** Appends the link's event (link.created or link.updated) and answers the link. */
async function withEvent(
  trx: Kysely<Database>,
  orgId: string,
  householdId: string,
  type: 'link.created' | 'link.updated',
  link: Link,
): Promise<Link> {
  await appendEvents(trx, { orgId, householdId, events: [{ type, resources: { link: JSON.stringify(link) } }] })
  return link
}

async function readOrThrow(trx: Kysely<Database>, householdId: string, linkId: string): Promise<Link> {
  const link = await readLink(trx, householdId, linkId)
  if (!link) throw linkNotFound()
  return link
}

export interface UpdateLinkInput {
  householdId: string
  linkId: string
  expected: ExpectedVersions
  /** A JSON merge patch of share and beneficiaryType. */
  patch: UpdateLinkBody
}

export async function updateLink(
  db: Kysely<Database>,
  principal: Principal,
  input: UpdateLinkInput,
): Promise<Written<Link>> {
  const { householdId, linkId, patch } = input
  return writeHousehold(db, { orgId: principal.orgId, id: householdId, expected: input.expected }, async (trx) => {
    const current = isUuid(linkId) ? await readLinkRow(trx, householdId, linkId.toLowerCase()) : undefined
    if (!current) throw linkNotFound()
    const { id } = current
    const share = patch.share === undefined ? current.share : patch.share
    const sentType = patch.beneficiaryType === undefined ? current.beneficiaryType : patch.beneficiaryType
    const beneficiaryType = sentType ?? (current.type === 'beneficiary' ? 'primary' : null)
    checkShareFields(
      current.type,
      share,
      beneficiaryType,
      { share: patch.share !== undefined, beneficiaryType: patch.beneficiaryType !== undefined },
      '',
    )
    await checkShareSums(
      storedLinkFacts(trx, householdId),
      { toEntityId: current.toEntityId, type: current.type, share, beneficiaryType },
      '',
      id,
    )
    await updateLinkShare(trx, id, { share, beneficiaryType })
    await recordAudit(trx, {
      actor: principal,
      action: 'link.update',
      householdId,
      linkId: id,
      changed: Object.keys(patch),
    })
    return withEvent(trx, principal.orgId, householdId, 'link.updated', await readOrThrow(trx, householdId, id))
  })
}

export interface DeleteLinkInput {
  householdId: string
  linkId: string
  expected: ExpectedVersions
}

/** Removes one link; answers the household's new version. */
export async function deleteLink(
  db: Kysely<Database>,
  principal: Principal,
  input: DeleteLinkInput,
): Promise<{ version: number }> {
  const { householdId, linkId } = input
  const written = await writeHousehold(
    db,
    { orgId: principal.orgId, id: householdId, expected: input.expected },
    async (trx) => {
      if (!isUuid(linkId) || !(await deleteLinkRow(trx, householdId, linkId.toLowerCase()))) throw linkNotFound()
      await recordAudit(trx, {
        actor: principal,
        action: 'link.delete',
        householdId,
        linkId: linkId.toLowerCase(),
        changed: [],
      })
      await appendEvents(trx, {
        orgId: principal.orgId,
        householdId,
        events: linkDeletedEvents([linkId.toLowerCase()]),
      })
    },
  )
  return { version: written.version }
}
