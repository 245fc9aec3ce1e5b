// The link facts (entity-links.ts, LinkFacts) of a household document: its members and entities
// as the document names them, and the links accepted so far. A document replaces the household's
// links whole, so its links are checked against each other, not against the stored ones, with
// exactly the rules of POST …/links (checkLinkAgainst) and no query per rule.
import type { EntityKind } from '../domain/estate-vocabulary.ts'
import { OWNING_LINK_TYPES } from '../domain/estate-vocabulary.ts'
import type { LinkEnd, LinkRow } from '../store/entity-links.ts'
import type { LinkFacts } from './entity-links.ts'

/** Shares are counted in ten-thousandths of a percent, as the stored sums are. */
const SHARE_UNITS = 10_000

export class DocumentLinkFacts implements LinkFacts {
  private readonly accepted: LinkRow[] = []

  constructor(
    private readonly members: ReadonlySet<string>,
    private readonly entities: ReadonlyMap<string, EntityKind>,
  ) {}

  /** A link that passed every rule: the later ones are checked against it. */
  accept(row: LinkRow): void {
    this.accepted.push(row)
  }

  resolveEnd(id: string): Promise<LinkEnd> {
    const kind = this.entities.get(id)
    if (kind !== undefined) return Promise.resolve({ is: 'entity', kind })
    return Promise.resolve(this.members.has(id) ? { is: 'member' } : { is: 'nothing' })
  }

  exists(row: LinkRow): Promise<boolean> {
    return Promise.resolve(
      this.accepted.some(
        (l) =>
          l.toEntityId === row.toEntityId &&
          l.type === row.type &&
          l.fromMemberId === row.fromMemberId &&
          l.fromEntityId === row.fromEntityId,
      ),
    )
  }

  count(): Promise<number> {
    return Promise.resolve(this.accepted.length)
  }

  shares(toEntityId: string): Promise<{ owners: number; primaryBeneficiaries: number }> {
    let owners = 0
    let primaryBeneficiaries = 0
    for (const l of this.accepted) {
      if (l.toEntityId !== toEntityId || l.share === null) continue
      const units = Math.round(l.share * SHARE_UNITS)
      if (OWNING_LINK_TYPES.has(l.type)) owners += units
      else if (l.type === 'beneficiary' && l.beneficiaryType === 'primary') primaryBeneficiaries += units
    }
    return Promise.resolve({ owners, primaryBeneficiaries })
  }

  ownsThroughChain(ownedId: string, ownerId: string): Promise<boolean> {
    const seen = new Set<string>()
    const queue = [ownedId]
    while (queue.length > 0) {
      const at = queue.pop()!
      for (const l of this.accepted) {
        if (l.fromEntityId !== at || !OWNING_LINK_TYPES.has(l.type) || seen.has(l.toEntityId)) continue
        if (l.toEntityId === ownerId) return Promise.resolve(true)
        seen.add(l.toEntityId)
        queue.push(l.toEntityId)
      }
    }
    return Promise.resolve(false)
  }
}
