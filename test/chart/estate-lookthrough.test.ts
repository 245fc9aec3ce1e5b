// The estate look-through of chart 0.2.0 (chart/src/estate/estate-lookthrough.ts): the Estate view's
// buckets, each entity's carried value and its split, and what each member holds through chains,
// worked by hand on the shipped example, the case the issue complains about (an FLP and an LLC in the
// estate by default but owned through two SLATs) and one case per rule; then properties on random
// households, loops included. Amounts are compared to 4 decimals: the look-through never rounds.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { estateSideWords } from '../../chart/src/estate/estate-side-words.ts'
import fc from 'fast-check'
import type { Payload } from '../../chart/payload.ts'
import type { EstateEntity, EstateInput, EstateLink, EstatePerson } from '../../chart/src/estate/estate-input.ts'
import { ESTATE_BUCKETS, type BucketAmounts } from '../../chart/src/estate/estate-buckets.ts'
import { ENTITY_KIND_RULES, isPartyKind } from '../../chart/src/estate/entity-kinds.ts'
import { lookThroughEstate, type EstateLookThrough } from '../../chart/src/estate/estate-lookthrough.ts'

const M = 1_000_000

const person = (id: string, role = 'other'): EstatePerson => ({ id, name: `Person ${id}`, role })
const entity = (id: string, kind: string, value?: number, estate?: 'in' | 'out'): EstateEntity => ({
  id,
  name: `Entity ${id}`,
  kind,
  ...(value === undefined ? {} : { value }),
  ...(estate === undefined ? {} : { estate }),
})
const owner = (from: string, to: string, share?: number, type = 'owner'): EstateLink => ({
  from,
  to,
  type,
  ...(share === undefined ? {} : { share }),
})
const grantor = (from: string, to: string): EstateLink => ({ from, to, type: 'grantor' })

/** The two clients, a child and a grandchild; most cases need no one else. */
const FAMILY = [
  person('eliz', 'primaryClient'),
  person('will', 'coClient'),
  person('kid', 'child'),
  person('gkid', 'grandchild'),
]

function household(entities: EstateEntity[], links: EstateLink[] = [], people = FAMILY): EstateInput {
  return { people, entities, links }
}

/** Every bucket equal to `expected`'s (the buckets it leaves out: 0). */
function expectBuckets(actual: Readonly<BucketAmounts>, expected: Partial<BucketAmounts>): void {
  for (const bucket of ESTATE_BUCKETS) expect(actual[bucket], bucket).toBeCloseTo(expected[bucket] ?? 0, 4)
}

function entityOf(result: EstateLookThrough, id: string) {
  const found = result.entities.get(id)
  if (found === undefined) throw new Error(`no entity ${id} in the look-through`)
  return found
}

function holdingOf(result: EstateLookThrough, memberId: string, entityId: string) {
  return result.members.get(memberId)?.holdings.find((holding) => holding.entityId === entityId)
}

describe('the estate look-through', () => {
  it('splits the shipped example (chart/example.json) by hand', () => {
    const example = JSON.parse(readFileSync(new URL('../../chart/example.json', import.meta.url), 'utf8')) as Payload
    // A 0.1.x payload is an EstateInput as it is.
    const input: EstateInput = example
    const result = lookThroughEstate(input)
    // rlt 6.2M, revocable, grantors Robert (primary) and Margaret (co), no owners → its own 6.2M is joint.
    // llc 4.8M owned 60 % by rlt and 40 % by slat, nothing left: 0.6 × 4.8 = 2.88M reaches rlt (joint),
    //   0.4 × 4.8 = 1.92M reaches slat (out) → outside.
    // ilit 5.0M (out) → outside; slat 3.5M (out) → outside; coastal (corporateTrustee, a party, no
    // value) is never counted.
    // joint = 6.2 + 2.88 = 9.08M; outside = 5.0 + 3.5 + 1.92 = 10.42M.
    expectBuckets(result.totals, { joint: 9.08 * M, outside: 10.42 * M })
    expect(result.estateTotal).toBeCloseTo(9.08 * M, 4)
    // 6.2 + 4.8 + 5.0 + 3.5 = 19.5M
    expect(result.grandTotal).toBeCloseTo(19.5 * M, 4)
    // Carried: rlt 6.2 + 2.88 = 9.08M; slat 3.5 + 1.92 = 5.42M; llc and ilit hold no other entity.
    expect(entityOf(result, 'rlt').carriedValue).toBeCloseTo(9.08 * M, 4)
    expect(entityOf(result, 'slat').carriedValue).toBeCloseTo(5.42 * M, 4)
    expect(entityOf(result, 'llc').carriedValue).toBeCloseTo(4.8 * M, 4)
    expect(entityOf(result, 'ilit').carriedValue).toBeCloseTo(5 * M, 4)
    // A party is not among the entities the look-through counts.
    expect(result.entities.has('coastal')).toBe(false)
    expect([...result.entities.keys()]).toEqual(['rlt', 'llc', 'ilit', 'slat'])
    expectBuckets(entityOf(result, 'llc').buckets, { joint: 2.88 * M, outside: 1.92 * M })
    expectBuckets(entityOf(result, 'rlt').buckets, { joint: 9.08 * M })
    expectBuckets(entityOf(result, 'slat').buckets, { outside: 5.42 * M })
    // No person owns anything in the example: grantors, trustees and beneficiaries hold no part.
    for (const member of result.members.values()) expect(member.holdings, member.id).toEqual([])
    expect(result.warnings).toEqual([])
  })

  describe("the issue's case: an FLP and an LLC, in the estate by default, owned through two SLATs", () => {
    const people = [person('eliz', 'primaryClient'), person('will', 'coClient'), person('kid', 'child')]
    const entities = [
      entity('llc', 'llc', 34.2 * M),
      entity('flp', 'flp', 15.8 * M),
      entity('slatE', 'slat', 2 * M),
      entity('slatW', 'slat', 2 * M),
      entity('rlt', 'revocableTrust', 12 * M),
      entity('home', 'realEstate', 4.5 * M),
      entity('iraE', 'retirementAccount', 8 * M),
      entity('iraW', 'retirementAccount', 6 * M),
      entity('northern', 'corporateTrustee'),
    ]
    const links = [
      owner('flp', 'llc', 100),
      owner('eliz', 'flp', 1, 'generalPartner'),
      owner('will', 'flp', 1, 'generalPartner'),
      owner('slatE', 'flp', 49, 'limitedPartner'),
      owner('slatW', 'flp', 49, 'limitedPartner'),
      grantor('eliz', 'slatE'),
      grantor('will', 'slatW'),
      { from: 'northern', to: 'slatE', type: 'trustee' },
      { from: 'northern', to: 'slatW', type: 'trustee' },
      { from: 'will', to: 'slatE', type: 'beneficiary', share: 100, beneficiaryType: 'primary' },
      { from: 'eliz', to: 'slatW', type: 'beneficiary', share: 100, beneficiaryType: 'primary' },
      grantor('eliz', 'rlt'),
      grantor('will', 'rlt'),
      owner('eliz', 'home', 50),
      owner('will', 'home', 50),
      owner('eliz', 'iraE'),
      owner('will', 'iraW'),
    ]
    const result = lookThroughEstate({ people, entities, links })

    it('says on the cards where each is counted: the FLP and the LLC 2% in estate, not "in estate"', () => {
      // flp: 98 % held by the SLATs (outside), 2 % by the clients (joint) → 2 % in; the llc is all the
      // flp's, so the same 2 %. The rlt is wholly in, a SLAT wholly out (its own part; no one owns it).
      const words = (id: string, side: 'in' | 'out') => estateSideWords(entityOf(result, id), side)
      expect([words('flp', 'in'), words('llc', 'in'), words('rlt', 'in'), words('slatE', 'out')]).toEqual([
        '2% in estate',
        '2% in estate',
        'in estate',
        'outside estate',
      ])
      // An entity with no value has nothing to split: the side it would be counted on.
      expect(estateSideWords(undefined, 'out')).toBe('outside estate')
    })

    it('counts 31.5M in the estate, where a naive sum of the in-estate column says 114.7M', () => {
      // The naive column: every entity in the estate by kind, at its carried value:
      // llc 34.2 + flp (15.8 + 34.2 = 50) + rlt 12 + home 4.5 + iraE 8 + iraW 6 = 114.7M.
      const naive = ['llc', 'flp', 'rlt', 'home', 'iraE', 'iraW']
        .map((id) => entityOf(result, id).carriedValue)
        .reduce((sum, value) => sum + value, 0)
      expect(naive).toBeCloseTo(114.7 * M, 4)
      // The look-through: flp carries 50M; the SLATs hold 49 % + 49 % = 98 % of it (49M) → outside;
      // the two clients hold 1 % each directly, so both their parts (2 % = 1M) are joint.
      // joint = rlt 12 (both grantors) + home 4.5 (50/50) + 1 = 17.5M; primaryClient = iraE 8M;
      // coClient = iraW 6M; outside = 49 + slatE 2 + slatW 2 = 53M.
      // estate = 17.5 + 8 + 6 = 31.5M; all = 31.5 + 53 = 84.5M = 34.2 + 15.8 + 2 + 2 + 12 + 4.5 + 8 + 6.
      expectBuckets(result.totals, { joint: 17.5 * M, primaryClient: 8 * M, coClient: 6 * M, outside: 53 * M })
      expect(result.estateTotal).toBeCloseTo(31.5 * M, 4)
      expect(result.grandTotal).toBeCloseTo(84.5 * M, 4)
    })

    it('carries the LLC through the FLP to the SLATs and the clients', () => {
      // flp: 15.8 + 100 % × 34.2 = 50M, split 98 % outside (49M) and 2 % joint (1M).
      expect(entityOf(result, 'flp').carriedValue).toBeCloseTo(50 * M, 4)
      expectBuckets(entityOf(result, 'flp').buckets, { outside: 49 * M, joint: 1 * M })
      // Each SLAT: 2 + 49 % × 50 = 26.5M, all outside.
      expect(entityOf(result, 'slatE').carriedValue).toBeCloseTo(26.5 * M, 4)
      expectBuckets(entityOf(result, 'slatW').buckets, { outside: 26.5 * M })
      // The llc's 34.2M: 98 % × 34.2 = 33.516M outside, 2 % × 34.2 = 0.684M joint.
      expectBuckets(entityOf(result, 'llc').buckets, { outside: 33.516 * M, joint: 0.684 * M })
      // Elizabeth: 1 % of flp directly (1 % × 50 = 0.5M), 1 % × 100 % = 1 % of llc through it (0.342M).
      expect(holdingOf(result, 'eliz', 'flp')).toMatchObject({ directFraction: 0.01, throughChainsFraction: 0 })
      expect(holdingOf(result, 'eliz', 'flp')?.value).toBeCloseTo(0.5 * M, 4)
      const llc = holdingOf(result, 'eliz', 'llc')!
      expect(llc.directFraction).toBe(0)
      expect(llc.throughChainsFraction).toBeCloseTo(0.01, 12)
      expect(llc.value).toBeCloseTo(0.342 * M, 4)
      // Held once each: 1 % × 15.8 + 1 % × 34.2 + 50 % × 4.5 + 100 % × 8 = 0.158 + 0.342 + 2.25 + 8 = 10.75M.
      expect(result.members.get('eliz')?.heldValue).toBeCloseTo(10.75 * M, 4)
    })

    it('counts the corporate trustee nowhere', () => {
      expect(result.entities.has('northern')).toBe(false)
      expect(result.warnings).toEqual([])
    })
  })

  it("counts nowhere a party's value, or an owner link from or to a party, and warns", () => {
    const result = lookThroughEstate(
      household(
        [entity('firm', 'lawFirm', 3 * M), entity('acct', 'taxableAccount', 1 * M)],
        [owner('firm', 'acct', 50), owner('eliz', 'firm', 100)],
      ),
    )
    // Only acct's 1M counts; firm's 50 % of it is ignored, so acct keeps it: in, no grantor → unassigned.
    expectBuckets(result.totals, { unassigned: 1 * M })
    expect(result.grandTotal).toBeCloseTo(1 * M, 4)
    expect(result.entities.has('firm')).toBe(false)
    expect(result.warnings.map((warning) => warning.code)).toEqual([
      'partyValueIgnored',
      'partyLinkIgnored',
      'partyLinkIgnored',
    ])
  })

  describe('residences', () => {
    it('a residence owned 50/50 by both clients is joint', () => {
      const result = lookThroughEstate(
        household([entity('home', 'realEstate', 2 * M)], [owner('eliz', 'home', 50), owner('will', 'home', 50)]),
      )
      // 50 % × 2 + 50 % × 2 = 2M, both clients' parts of one entity → joint.
      expectBuckets(result.totals, { joint: 2 * M })
    })

    it("a residence owned 100 % by the primary client is the primary client's", () => {
      const result = lookThroughEstate(household([entity('home', 'realEstate', 2 * M)], [owner('eliz', 'home', 100)]))
      expectBuckets(result.totals, { primaryClient: 2 * M })
      expect(holdingOf(result, 'eliz', 'home')).toMatchObject({ directFraction: 1, fraction: 1, value: 2 * M })
    })

    it('both clients and a child: the clients’ parts are joint, the child’s outside', () => {
      const result = lookThroughEstate(
        household(
          [entity('home', 'realEstate', 1 * M)],
          [owner('eliz', 'home', 40), owner('will', 'home', 40), owner('kid', 'home', 20)],
        ),
      )
      // joint = (40 + 40) % × 1M = 0.8M; outside = 20 % × 1M = 0.2M.
      expectBuckets(result.totals, { joint: 0.8 * M, outside: 0.2 * M })
    })
  })

  describe('trusts and policies', () => {
    it('a revocable trust with both clients as grantors and no owners is joint', () => {
      const result = lookThroughEstate(
        household([entity('rlt', 'revocableTrust', 3 * M)], [grantor('eliz', 'rlt'), grantor('will', 'rlt')]),
      )
      expectBuckets(result.totals, { joint: 3 * M })
    })

    it("a revocable trust with one client as grantor is that client's", () => {
      const byWill = lookThroughEstate(household([entity('rlt', 'revocableTrust', 3 * M)], [grantor('will', 'rlt')]))
      expectBuckets(byWill.totals, { coClient: 3 * M })
      const byEliz = lookThroughEstate(household([entity('rlt', 'revocableTrust', 3 * M)], [grantor('eliz', 'rlt')]))
      expectBuckets(byEliz.totals, { primaryClient: 3 * M })
    })

    it('an entity in the estate that no client owns or granted is unassigned', () => {
      // Only the child is grantor; an owner link is no grantor link, so the llc's own part is unassigned too.
      const result = lookThroughEstate(
        household(
          [entity('rlt', 'revocableTrust', 3 * M), entity('llc', 'llc', 1 * M)],
          [grantor('kid', 'rlt'), { from: 'eliz', to: 'llc', type: 'trustee' }],
        ),
      )
      // 3 + 1 = 4M, none of it a client's.
      expectBuckets(result.totals, { unassigned: 4 * M })
      expect(result.estateTotal).toBeCloseTo(4 * M, 4)
    })

    it('an ILIT owning a policy puts the policy outside', () => {
      const result = lookThroughEstate(
        household(
          [entity('ilit', 'ilit', 0), entity('policy', 'lifeInsurance', 5 * M)],
          [grantor('eliz', 'ilit'), owner('ilit', 'policy', 100), { from: 'eliz', to: 'policy', type: 'insured' }],
        ),
      )
      // The policy's 5M flows to the ILIT (out by default) → outside; being insured owns nothing.
      expectBuckets(result.totals, { outside: 5 * M })
      expect(entityOf(result, 'ilit').carriedValue).toBeCloseTo(5 * M, 4)
    })

    it("a policy the primary client owns directly is the primary client's (incidents of ownership)", () => {
      const result = lookThroughEstate(
        household(
          [entity('policy', 'lifeInsurance', 5 * M)],
          [owner('eliz', 'policy'), { from: 'eliz', to: 'policy', type: 'insured' }],
        ),
      )
      expectBuckets(result.totals, { primaryClient: 5 * M })
    })

    it('an explicit estate side overrides the kind: a trust marked in, an LLC marked out', () => {
      const result = lookThroughEstate(
        household(
          [entity('slat', 'slat', 2 * M, 'in'), entity('llc', 'llc', 1 * M, 'out')],
          [grantor('will', 'slat'), owner('eliz', 'llc', 25)],
        ),
      )
      // slat 2M, marked in, grantor Will → coClient. llc 1M, marked out: out whoever owns it
      // (DESIGN §5), so Eliz's 25 % and its own 75 % → outside 0.25M + 0.75M = 1M.
      expectBuckets(result.totals, { coClient: 2 * M, outside: 1 * M })
      // Eliz still holds her quarter of it (the summaries say so); only where it is counted changes.
      expect(entityOf(result, 'llc').holders).toEqual([expect.objectContaining({ id: 'eliz', fraction: 0.25 })])
    })

    it('an entity marked out stays out through a chain: a client-owned trust holding it adds none of it', () => {
      const result = lookThroughEstate(
        household(
          [entity('rlt', 'revocableTrust', 1 * M), entity('llc', 'llc', 2 * M, 'out')],
          [grantor('eliz', 'rlt'), owner('rlt', 'llc', 100)],
        ),
      )
      // rlt 1M, in by its kind, grantor Eliz → primaryClient 1M. llc 2M marked out, 100 % held by the
      // rlt → outside 2M: the rlt carries 3M but only its own 1M is in Eliz's estate.
      expectBuckets(result.totals, { primaryClient: 1 * M, outside: 2 * M })
      expect(entityOf(result, 'rlt').carriedValue).toBe(3 * M)
    })
  })

  describe('shares', () => {
    it('owners without shares split equally', () => {
      const result = lookThroughEstate(
        household([entity('llc', 'llc', 3 * M)], [owner('eliz', 'llc'), owner('kid', 'llc'), owner('gkid', 'llc')]),
      )
      // Three owners without a share take 100 % / 3 each: 1M each; Eliz's → primaryClient, the others' outside.
      expectBuckets(result.totals, { primaryClient: 1 * M, outside: 2 * M })
      expect(entityOf(result, 'llc').ownFraction).toBe(0)
      for (const holder of entityOf(result, 'llc').holders) expect(holder.fraction).toBeCloseTo(1 / 3, 12)
    })

    it('owners without a share split what the shared owners leave', () => {
      const result = lookThroughEstate(
        household([entity('llc', 'llc', 1 * M)], [owner('eliz', 'llc', 40), owner('kid', 'llc'), owner('gkid', 'llc')]),
      )
      // Eliz 40 % → 0.4M primaryClient; the kid and grandkid (100 − 40) / 2 = 30 % each → 0.6M outside.
      expectBuckets(result.totals, { primaryClient: 0.4 * M, outside: 0.6 * M })
    })

    it("owners leaving 30 % leave it to the entity's own part", () => {
      const result = lookThroughEstate(
        household([entity('llc', 'llc', 1 * M)], [owner('eliz', 'llc', 40), owner('kid', 'llc', 30)]),
      )
      // Eliz 40 % → 0.4M primaryClient; kid 30 % → 0.3M outside; own 100 − 40 − 30 = 30 % → 0.3M, and an
      // llc is in the estate with no client grantor → unassigned.
      expectBuckets(result.totals, { primaryClient: 0.4 * M, outside: 0.3 * M, unassigned: 0.3 * M })
      expect(entityOf(result, 'llc').ownFraction).toBeCloseTo(0.3, 12)
    })

    it('scales shares over 100 down to 100, and warns', () => {
      const result = lookThroughEstate(
        household([entity('llc', 'llc', 1.2 * M)], [owner('eliz', 'llc', 80), owner('kid', 'llc', 40)]),
      )
      // 80 + 40 = 120 %: Eliz 80/120 × 1.2 = 0.8M, kid 40/120 × 1.2 = 0.4M.
      expectBuckets(result.totals, { primaryClient: 0.8 * M, outside: 0.4 * M })
      expect(result.warnings.map((warning) => warning.code)).toEqual(['sharesOverHundred'])
    })

    it('gives nothing to owners without a share when the shared owners take 100 %, and warns', () => {
      const result = lookThroughEstate(
        household([entity('llc', 'llc', 1 * M)], [owner('eliz', 'llc', 100), owner('kid', 'llc')]),
      )
      expectBuckets(result.totals, { primaryClient: 1 * M })
      expect(result.warnings.map((warning) => warning.code)).toEqual(['ownersLeftNothing'])
    })
  })

  it('carries values through a three-level chain: member → FLP → LLC → real estate', () => {
    const result = lookThroughEstate(
      household(
        [entity('flp', 'flp', 1 * M), entity('llc', 'llc', 2 * M), entity('land', 'realEstate', 3 * M)],
        [
          owner('eliz', 'flp', 60),
          owner('kid', 'flp', 40),
          owner('flp', 'llc', 50),
          owner('gkid', 'llc', 50),
          owner('llc', 'land', 100),
        ],
      ),
    )
    // Carried: land 3M; llc 2 + 100 % × 3 = 5M; flp 1 + 50 % × 5 = 3.5M.
    expect(entityOf(result, 'land').carriedValue).toBeCloseTo(3 * M, 4)
    expect(entityOf(result, 'llc').carriedValue).toBeCloseTo(5 * M, 4)
    expect(entityOf(result, 'flp').carriedValue).toBeCloseTo(3.5 * M, 4)
    // Eliz: 60 % of flp directly (60 % × 3.5 = 2.1M); 60 % × 50 % = 30 % of llc (30 % × 5 = 1.5M);
    // 30 % × 100 % = 30 % of land (30 % × 3 = 0.9M), both through the chain.
    expect(holdingOf(result, 'eliz', 'flp')).toMatchObject({ directFraction: 0.6, throughChainsFraction: 0 })
    for (const [id, fraction, value] of [
      ['llc', 0.3, 1.5 * M],
      ['land', 0.3, 0.9 * M],
    ] as const) {
      const holding = holdingOf(result, 'eliz', id)!
      expect(holding.directFraction, id).toBe(0)
      expect(holding.throughChainsFraction, id).toBeCloseTo(fraction, 12)
      expect(holding.value, id).toBeCloseTo(value, 4)
    }
    // Each value once: 60 % × 1 + 30 % × 2 + 30 % × 3 = 0.6 + 0.6 + 0.9 = 2.1M (= 60 % of flp's carried 3.5M).
    expect(result.members.get('eliz')?.heldValue).toBeCloseTo(2.1 * M, 4)
    // land's 3M: Eliz 30 % → 0.9M primaryClient; gkid 50 % → 1.5M and kid 40 % × 50 % = 20 % → 0.6M outside (2.1M).
    expectBuckets(entityOf(result, 'land').buckets, { primaryClient: 0.9 * M, outside: 2.1 * M })
    // All: primaryClient 2.1M; outside = kid 40 % × 3.5 = 1.4M + gkid 50 % × 5 = 2.5M = 3.9M; 2.1 + 3.9 = 6 = 1 + 2 + 3.
    expectBuckets(result.totals, { primaryClient: 2.1 * M, outside: 3.9 * M })
  })

  describe('ownership loops in a partner payload', () => {
    it('keeps the looping part with the entity, conserves the total and warns', () => {
      const result = lookThroughEstate(
        household(
          [entity('a', 'llc', 1 * M), entity('b', 'llc', 2 * M)],
          [owner('b', 'a', 50), owner('eliz', 'a', 50), owner('a', 'b', 50), owner('kid', 'b', 50)],
        ),
      )
      // The walk starts at a (first in the payload) and goes up to its holder b, whose holder a is still
      // being walked: a's 50 % of b would loop, so it stays with b as b's own part.
      // b (2M): own 50 % (llc, no client grantor) → unassigned 1M; kid 50 % → outside 1M.
      // a (1M): Eliz 50 % → primaryClient 0.5M; b's 50 % follows b: 25 % unassigned, 25 % outside → 0.25M each.
      // Totals: primaryClient 0.5M, unassigned 1.25M, outside 1.25M; 0.5 + 1.25 + 1.25 = 3M = 1 + 2.
      expectBuckets(result.totals, { primaryClient: 0.5 * M, unassigned: 1.25 * M, outside: 1.25 * M })
      expect(result.grandTotal).toBeCloseTo(3 * M, 4)
      // b carries 2 + 50 % × 1 = 2.5M; a carries only its own 1M (the looping link carries nothing).
      expect(entityOf(result, 'b').carriedValue).toBeCloseTo(2.5 * M, 4)
      expect(entityOf(result, 'a').carriedValue).toBeCloseTo(1 * M, 4)
      expect(entityOf(result, 'b').ownFraction).toBeCloseTo(0.5, 12)
      expect(result.warnings).toEqual([expect.objectContaining({ code: 'ownershipLoop', entityId: 'b' })])
    })

    it('terminates on entities that own each other entirely, and on one that owns itself', () => {
      const result = lookThroughEstate(
        household(
          [entity('a', 'llc', 1 * M), entity('b', 'llc', 2 * M), entity('c', 'foundation', 4 * M)],
          [owner('b', 'a', 100), owner('a', 'b', 100), owner('c', 'c', 30), owner('eliz', 'c', 70)],
        ),
      )
      // a's 100 % goes to b; b's 100 % back to a loops, so b keeps all: 1 + 2 = 3M unassigned.
      // c owns 30 % of itself: that loops and stays its own (charity, 1.2M); Eliz 70 % → 2.8M primaryClient.
      expectBuckets(result.totals, { unassigned: 3 * M, charity: 1.2 * M, primaryClient: 2.8 * M })
      expect(result.grandTotal).toBeCloseTo(7 * M, 4)
      expect(result.warnings.map((warning) => [warning.code, warning.entityId])).toEqual([
        ['ownershipLoop', 'b'],
        ['ownershipLoop', 'c'],
      ])
    })
  })

  it("puts a charity's own part in charity, including what it holds of another entity", () => {
    const result = lookThroughEstate(
      household(
        [entity('fdn', 'foundation', 2 * M), entity('daf', 'daf', 0), entity('llc', 'llc', 1 * M)],
        [grantor('eliz', 'fdn'), owner('daf', 'llc', 25), owner('eliz', 'llc', 75)],
      ),
    )
    // fdn 2M → charity (a client as grantor does not bring a charity into the estate);
    // llc 1M: daf 25 % → 0.25M charity; Eliz 75 % → 0.75M primaryClient.
    expectBuckets(result.totals, { charity: 2.25 * M, primaryClient: 0.75 * M })
    expect(result.estateTotal).toBeCloseTo(0.75 * M, 4)
  })

  it('puts a child owner’s part outside the clients’ estate', () => {
    const result = lookThroughEstate(
      household([entity('acct', 'taxableAccount', 0.5 * M)], [owner('kid', 'acct', 100)]),
    )
    expectBuckets(result.totals, { outside: 0.5 * M })
    expect(result.estateTotal).toBe(0)
    expect(holdingOf(result, 'kid', 'acct')?.value).toBeCloseTo(0.5 * M, 4)
  })

  it('counts a kind it does not know like other (in the estate), and warns', () => {
    const result = lookThroughEstate(household([entity('x', 'spaceship', 1 * M)], [grantor('eliz', 'x')]))
    expectBuckets(result.totals, { primaryClient: 1 * M })
    expect(result.warnings.map((warning) => warning.code)).toEqual(['unknownKind'])
  })
})

describe('the estate look-through on random households', () => {
  const kinds = [...Object.keys(ENTITY_KIND_RULES), 'futureKind']
  const randomHousehold = fc
    .record({
      roles: fc.array(fc.constantFrom('primaryClient', 'coClient', 'child', 'other'), { minLength: 1, maxLength: 5 }),
      entities: fc.array(
        fc.record({
          kind: fc.constantFrom(...kinds),
          value: fc.option(fc.double({ min: 0, max: 1e10, noNaN: true }), { nil: undefined }),
          estate: fc.option(fc.constantFrom('in' as const, 'out' as const), { nil: undefined }),
        }),
        { minLength: 1, maxLength: 8 },
      ),
      links: fc.array(
        fc.record({
          from: fc.nat(),
          to: fc.nat(),
          type: fc.constantFrom('owner', 'generalPartner', 'limitedPartner', 'grantor', 'trustee', 'beneficiary'),
          share: fc.option(fc.double({ min: 0.0001, max: 100, noNaN: true }), { nil: undefined }),
        }),
        { maxLength: 30 },
      ),
    })
    .map(({ roles, entities, links }): EstateInput => {
      const people = roles.map((role, i) => person(`p${i}`, role))
      const records = entities.map(({ kind, value, estate }, i) => entity(`e${i}`, kind, value, estate))
      const ids = [...people, ...records].map((record) => record.id)
      return {
        people,
        entities: records,
        // Any person or entity to any entity: loops, self-links and links to parties included.
        links: links.map(({ from, to, type, share }) => ({
          ...owner(ids[from % ids.length]!, records[to % records.length]!.id, share),
          type,
        })),
      }
    })

  it('conserves the non-party total, splits each carried value exactly, and never goes negative', () => {
    fc.assert(
      fc.property(randomHousehold, (input) => {
        const result = lookThroughEstate(input)
        const total = (input.entities ?? [])
          .filter((each) => !isPartyKind(each.kind))
          .reduce((sum, each) => sum + (each.value ?? 0), 0)
        const tolerance = 1e-9 * Math.max(1, total)
        expect(Math.abs(result.grandTotal - total)).toBeLessThanOrEqual(tolerance)
        const estate =
          result.totals.primaryClient + result.totals.coClient + result.totals.joint + result.totals.unassigned
        expect(Math.abs(result.estateTotal - estate)).toBeLessThanOrEqual(tolerance)
        for (const bucket of ESTATE_BUCKETS) expect(result.totals[bucket]).toBeGreaterThanOrEqual(0)
        for (const each of result.entities.values()) {
          const split = ESTATE_BUCKETS.reduce((sum, bucket) => sum + each.buckets[bucket], 0)
          expect(Math.abs(split - each.carriedValue)).toBeLessThanOrEqual(tolerance)
          for (const bucket of ESTATE_BUCKETS) expect(each.buckets[bucket]).toBeGreaterThanOrEqual(0)
          const held = each.holders.reduce((sum, holder) => sum + holder.fraction, each.ownFraction)
          expect(held).toBeCloseTo(1, 9)
        }
        // Members together hold at most all of the household, each value counted once.
        const heldByMembers = [...result.members.values()].reduce((sum, member) => sum + member.heldValue, 0)
        expect(heldByMembers).toBeLessThanOrEqual(total + tolerance)
      }),
      { numRuns: 300 },
    )
  })
})
