import { describe, expect, it } from 'vitest'
import { SAMPLE_HOUSEHOLDS } from '../../src/domain/sample-households.ts'
import {
  entityGroupOf,
  isParty,
  OWNING_LINK_TYPES,
  SHARED_LINK_TYPES,
  type EntityKind,
} from '../../src/domain/estate-vocabulary.ts'

// The samples are written straight into the tables (store/samples.ts), past the use cases, so
// their data is checked here against the rules the API enforces on the same facts.
describe('sample households', () => {
  it('name each member and entity once, and link only names they have', () => {
    for (const sample of SAMPLE_HOUSEHOLDS) {
      const names = [...sample.members.map((m) => m.name), ...sample.entities.map((e) => e.name)]
      expect(new Set(names).size, sample.fields.name).toBe(names.length)
      const members = new Set(sample.members.map((m) => m.name))
      const entities = new Set(sample.entities.map((e) => e.name))
      for (const kinship of sample.kinships) {
        expect(members.has(kinship.from) && members.has(kinship.to), JSON.stringify(kinship)).toBe(true)
      }
      for (const link of sample.links) {
        expect(members.has(link.from) || entities.has(link.from), JSON.stringify(link)).toBe(true)
        expect(entities.has(link.to), JSON.stringify(link)).toBe(true)
        expect(link.from).not.toBe(link.to)
      }
    }
  })

  it('join every couple and link every child and grandchild to a parent in the household', () => {
    for (const sample of SAMPLE_HOUSEHOLDS) {
      const byRole = (role: string) => sample.members.filter((m) => m.role === role).map((m) => m.name)
      const [primary] = byRole('primaryClient')
      const [co] = byRole('coClient')
      if (primary !== undefined && co !== undefined) {
        expect(
          sample.kinships.some(
            (k) => k.type === 'spouse' && [k.from, k.to].sort().join() === [primary, co].sort().join(),
          ),
          sample.fields.name,
        ).toBe(true)
      }
      // With two parents in the household (a client couple, or a client and the late spouse), a child has both.
      if (primary !== undefined && (co !== undefined || byRole('spouse').length > 0)) {
        for (const child of byRole('child')) {
          expect(sample.kinships.filter((k) => k.type === 'parent' && k.to === child).length, child).toBe(2)
        }
      }
      for (const kinship of sample.kinships) {
        if (kinship.parentKind !== undefined) expect(kinship.type).toBe('parent')
        if (kinship.since !== undefined || kinship.until !== undefined) expect(kinship.type).not.toBe('parent')
        if (kinship.since !== undefined && kinship.until !== undefined) {
          expect(kinship.until >= kinship.since).toBe(true)
        }
      }
      for (const child of [...byRole('child'), ...byRole('grandchild')]) {
        expect(
          sample.kinships.some((k) => k.type === 'parent' && k.to === child),
          child,
        ).toBe(true)
      }
    }
  })

  it('follow the link rules: kinds, parties, shares and no ownership cycle', () => {
    for (const sample of SAMPLE_HOUSEHOLDS) {
      const kind = new Map<string, EntityKind>(sample.entities.map((e) => [e.name, e.kind]))
      const seen = new Set<string>()
      for (const entity of sample.entities) {
        if (isParty(entity.kind)) expect(entity.value ?? entity.estate, entity.name).toBeUndefined()
      }
      for (const link of sample.links) {
        const to = kind.get(link.to)!
        const key = `${link.from}|${link.to}|${link.type}`
        expect(seen.has(key), key).toBe(false)
        seen.add(key)
        if (link.share !== undefined) {
          expect(SHARED_LINK_TYPES.has(link.type), key).toBe(true)
          expect(link.share > 0 && link.share <= 100, key).toBe(true)
        }
        if (link.beneficiaryType !== undefined) expect(link.type).toBe('beneficiary')
        if (['grantor', 'trustee', 'successorTrustee'].includes(link.type)) {
          expect(['trust', 'charity'], key).toContain(entityGroupOf(to))
        }
        if (link.type === 'insured') expect(to, key).toBe('lifeInsurance')
        if (link.type === 'generalPartner' || link.type === 'limitedPartner') {
          expect(['flp', 'llc', 'corporation'], key).toContain(to)
        }
        if (['owner', 'generalPartner', 'limitedPartner', 'beneficiary', 'insured'].includes(link.type)) {
          expect(isParty(to), key).toBe(false)
        }
      }
      const sum = (filter: (l: (typeof sample.links)[number]) => boolean) => {
        const totals = new Map<string, number>()
        for (const link of sample.links.filter(filter))
          totals.set(link.to, (totals.get(link.to) ?? 0) + (link.share ?? 0))
        return [...totals.values()]
      }
      for (const total of sum((l) => OWNING_LINK_TYPES.has(l.type))) expect(total).toBeLessThanOrEqual(100)
      for (const total of sum((l) => l.type === 'beneficiary' && (l.beneficiaryType ?? 'primary') === 'primary')) {
        expect(total).toBeLessThanOrEqual(100)
      }
      // No entity owns itself: walk the owning links from each entity.
      const owners = new Map<string, string[]>()
      for (const link of sample.links.filter((l) => OWNING_LINK_TYPES.has(l.type) && kind.has(l.from))) {
        owners.set(link.to, [...(owners.get(link.to) ?? []), link.from])
      }
      for (const start of kind.keys()) {
        const stack = [...(owners.get(start) ?? [])]
        const visited = new Set<string>()
        while (stack.length > 0) {
          const next = stack.pop()!
          expect(next, `${start} owns itself`).not.toBe(start)
          if (visited.has(next)) continue
          visited.add(next)
          stack.push(...(owners.get(next) ?? []))
        }
      }
    }
  })

  it('include at least three estates with a trust, an LLC and a holding', () => {
    const estates = SAMPLE_HOUSEHOLDS.filter((sample) => {
      const groups = new Set(sample.entities.map((e) => entityGroupOf(e.kind)))
      return groups.has('trust') && sample.entities.some((e) => e.kind === 'llc') && groups.has('holding')
    })
    expect(estates.length).toBeGreaterThanOrEqual(3)
    for (const sample of estates) {
      expect(sample.entities.some((e) => e.kind === 'corporateTrustee' || e.kind === 'lawFirm')).toBe(true)
    }
  })
})
