// The payload rules the schema cannot say (chart/src/payload-rules.ts): the path of the first
// problem, the order the rules run in, agreement with a naive reference on random graphs, and
// linear-ish time without recursion at the schema's limits.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { checkPayloadRules } from '../../chart/src/payload-rules.ts'
import { payloadJsonSchema, PAYLOAD_LIMITS, type Payload, type Relationship } from '../../chart/payload.ts'

const example = JSON.parse(readFileSync(new URL('../../chart/example.json', import.meta.url), 'utf8')) as Payload

function people(...ids: string[]): Payload['people'] {
  return ids.map((id) => ({ id, name: `Person ${id}`, role: 'other' as const }))
}

function family(relationships: Relationship[], ids = ['a', 'b', 'c', 'd', 'e']): Payload {
  return { household: { name: 'Test' }, people: people(...ids), relationships }
}

const parent = (from: string, to: string): Relationship => ({ from, to, type: 'parent' })
const spouse = (from: string, to: string): Relationship => ({ from, to, type: 'spouse' })

describe('payload rules', () => {
  it('accepts the published example and a payload without optional arrays', () => {
    expect(checkPayloadRules(example)).toBeNull()
    expect(checkPayloadRules({ household: { name: 'Solo' }, people: people('only') })).toBeNull()
  })

  it('refuses an id used twice across people and entities, at the later one', () => {
    expect(checkPayloadRules({ household: { name: 'T' }, people: people('a', 'b', 'c', 'b') })).toEqual({
      path: '/people/3/id',
      message: '/people/3/id: repeats the id of an earlier person',
    })
    const entity = (id: string) => ({ id, name: `Trust ${id}`, kind: 'other' as const })
    expect(
      checkPayloadRules({ household: { name: 'T' }, people: people('a'), entities: [entity('t'), entity('a')] })?.path,
    ).toBe('/entities/1/id')
    expect(
      checkPayloadRules({
        household: { name: 'T' },
        people: people('a'),
        entities: [entity('t'), entity('u'), entity('t')],
      })?.path,
    ).toBe('/entities/2/id')
  })

  it('refuses relationships that do not join two known, different people', () => {
    const payload = (relationship: Relationship): Payload => ({
      household: { name: 'T' },
      people: people('a', 'b'),
      entities: [{ id: 'trust', name: 'Trust', kind: 'ilit' }],
      relationships: [spouse('a', 'b'), parent('a', 'b'), relationship],
    })
    expect(checkPayloadRules(payload(parent('a', 'zed')))?.path).toBe('/relationships/2/to')
    expect(checkPayloadRules(payload(parent('zed', 'a')))?.path).toBe('/relationships/2/from')
    expect(checkPayloadRules(payload(spouse('a', 'trust')))).toEqual({
      path: '/relationships/2/to',
      message: '/relationships/2/to: names an entity; a relationship joins two people',
    })
    expect(checkPayloadRules(payload(spouse('trust', 'a')))?.path).toBe('/relationships/2/from')
    expect(checkPayloadRules(payload(spouse('b', 'b')))?.path).toBe('/relationships/2/to')
  })

  it('refuses links that do not go from a known id to another entity', () => {
    const payload = (link: NonNullable<Payload['links']>[number]): Payload => ({
      ...example,
      links: [...(example.links ?? []).slice(0, 4), link],
    })
    expect(checkPayloadRules(payload({ from: 'nobody', to: 'rlt', type: 'beneficiary' }))?.path).toBe('/links/4/from')
    expect(checkPayloadRules(payload({ from: 'robert', to: 'nothing', type: 'grantor' }))).toEqual({
      path: '/links/4/to',
      message: '/links/4/to: names no entity of the payload',
    })
    expect(checkPayloadRules(payload({ from: 'robert', to: 'margaret', type: 'trustee' }))?.path).toBe('/links/4/to')
    expect(checkPayloadRules(payload({ from: 'llc', to: 'llc', type: 'owner' }))?.path).toBe('/links/4/to')
    expect(checkPayloadRules(payload({ from: 'rlt', to: 'llc', type: 'owner', share: 10 }))).toBeNull()
  })

  it('refuses a person who is their own ancestor, at the relationship that closes the cycle', () => {
    expect(checkPayloadRules(family([parent('a', 'b'), parent('b', 'c'), parent('c', 'a')]))).toEqual({
      path: '/relationships/2',
      message: '/relationships/2: makes a person their own ancestor (a cycle of parent relationships)',
    })
    expect(checkPayloadRules(family([parent('a', 'b'), spouse('a', 'c'), parent('b', 'a')]))?.path).toBe(
      '/relationships/2',
    )
    // A cycle away from the first person, among other edges.
    expect(
      checkPayloadRules(family([parent('a', 'b'), parent('c', 'd'), parent('d', 'e'), parent('e', 'c')]))?.path,
    ).toBe('/relationships/3')
    // Two parents, a diamond, and the same edge twice are not cycles.
    expect(
      checkPayloadRules(
        family([
          parent('a', 'c'),
          parent('b', 'c'),
          parent('c', 'd'),
          parent('a', 'e'),
          parent('e', 'd'),
          parent('a', 'c'),
        ]),
      ),
    ).toBeNull()
  })

  it('refuses partners who are each other’s ancestor and descendant, in either order', () => {
    const tree = [parent('a', 'b'), parent('b', 'c'), parent('d', 'b')]
    expect(checkPayloadRules(family([...tree, spouse('a', 'c')]))).toEqual({
      path: '/relationships/3',
      message: '/relationships/3: joins as partners a person and their own ancestor or descendant',
    })
    expect(checkPayloadRules(family([...tree, { from: 'c', to: 'a', type: 'exSpouse' }]))?.path).toBe(
      '/relationships/3',
    )
    expect(checkPayloadRules(family([{ from: 'b', to: 'd', type: 'partner' }, ...tree]))?.path).toBe('/relationships/0')
    // Co-parents, in-laws and (unusually) siblings are not each other's ancestors.
    expect(checkPayloadRules(family([...tree, spouse('a', 'd'), spouse('c', 'e')]))).toBeNull()
    expect(checkPayloadRules(family([parent('a', 'b'), parent('a', 'c'), spouse('b', 'c')]))).toBeNull()
  })

  it('reports the first problem in rule order: ids, relationships, links, cycles, partners', () => {
    const payload: Payload = {
      household: { name: 'T' },
      people: people('a', 'b', 'c'),
      relationships: [parent('a', 'b'), parent('b', 'a'), spouse('a', 'b'), parent('c', 'zed')],
      links: [{ from: 'a', to: 'nothing', type: 'grantor' }],
    }
    expect(checkPayloadRules(payload)?.path).toBe('/relationships/3/to')
    payload.relationships?.pop()
    expect(checkPayloadRules(payload)?.path).toBe('/links/0/to')
    payload.links = []
    expect(checkPayloadRules(payload)?.path).toBe('/relationships/1')
  })

  it('agrees with a naive reference on random families', () => {
    const ids = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6']
    const relationship = fc.record({
      from: fc.constantFrom(...ids),
      to: fc.constantFrom(...ids),
      type: fc.constantFrom('spouse', 'partner', 'exSpouse', 'parent', 'parent', 'parent'),
    })
    fc.assert(
      fc.property(fc.array(relationship, { maxLength: 14 }), (drawn) => {
        const relationships = drawn.filter((r) => r.from !== r.to) as Relationship[]
        const problem = checkPayloadRules(family(relationships, ids))
        const reference = naiveProblem(relationships)
        if (reference.cycle) {
          // Which edge of a cycle is blamed depends on the search; it must be a parent edge on a cycle.
          expect(problem?.message).toContain('own ancestor (a cycle')
          const index = Number(problem?.path.split('/')[2])
          const edge = relationships[index]!
          expect(edge.type).toBe('parent')
          expect(reaches(relationships, edge.to, edge.from)).toBe(true)
        } else {
          expect(problem?.path ?? null).toBe(reference.partner === null ? null : `/relationships/${reference.partner}`)
        }
      }),
      { numRuns: 500 },
    )
  })

  // No recursion (a 1000-generation line would overflow the stack) and no hang (the test timeout).
  it('stays flat at the schema limits: a 1000-generation line, 5000 relationships', () => {
    const count = PAYLOAD_LIMITS.people
    const ids = Array.from({ length: count }, (_, i) => `p${i}`)
    const relationships: Relationship[] = []
    for (let i = 1; i < count; i++) relationships.push(parent(ids[i - 1]!, ids[i]!))
    while (relationships.length < PAYLOAD_LIMITS.relationships - 1) {
      const i = relationships.length % (count - 2)
      relationships.push(parent(ids[i]!, ids[i + 2]!))
    }
    const line = family(relationships, ids)
    expect(checkPayloadRules({ ...line, relationships: [...relationships, spouse('p500', 'p501')] })?.path).toBe(
      `/relationships/${relationships.length}`,
    )
    expect(checkPayloadRules({ ...line, relationships: [...relationships, parent('p999', 'p0')] })?.path).toBe(
      `/relationships/${relationships.length}`,
    )
    // Many partner edges, the last one wrong: every earlier one is checked first.
    const partners = Array.from({ length: 1499 }, (_, i) => ({
      from: ids[i % count]!,
      to: `q${i}`,
      type: 'partner' as const,
    }))
    const spouses = people(...partners.map((partner) => partner.to))
    expect(
      checkPayloadRules({
        ...line,
        people: [...line.people, ...spouses],
        relationships: [...relationships.slice(0, 3500), ...partners, spouse('p999', 'p3')],
      })?.path,
    ).toBe('/relationships/4999')
    const wide = family(
      ids.slice(1).map((id) => parent('p0', id)),
      ids,
    )
    expect(
      checkPayloadRules({
        ...wide,
        relationships: [...(wide.relationships ?? []), ...ids.slice(2).map((id) => spouse('p1', id))],
      }),
    ).toBeNull()
  })
})

describe('payload schema', () => {
  const validate = new Ajv2020({ allErrors: false, strict: true }).compile(payloadJsonSchema('test'))

  it('accepts the example and answers the first problem with its JSON Pointer', () => {
    expect(validate(example)).toBe(true)
    const tooMany = {
      ...example,
      people: Array.from({ length: 10_000 }, (_, i) => ({ id: `p${i}`, name: `P ${i}`, role: 'other' })),
    }
    expect(validate(tooMany)).toBe(false)
    expect(validate.errors?.[0]?.instancePath).toBe('/people')
    expect(validate({ ...example, people: [{ id: 'x', name: 'X' }] })).toBe(false)
    expect(validate.errors?.[0]).toMatchObject({
      instancePath: '/people/0',
      message: "must have required property 'role'",
    })
  })
})

/** Whether `from` reaches `to` over parent edges. */
function reaches(relationships: Relationship[], from: string, to: string): boolean {
  const seen = new Set<string>([from])
  const queue = [from]
  while (queue.length > 0) {
    const person = queue.shift()!
    if (person === to) return true
    for (const r of relationships) {
      if (r.type === 'parent' && r.from === person && !seen.has(r.to)) {
        seen.add(r.to)
        queue.push(r.to)
      }
    }
  }
  return false
}

/** The slow, obvious version: is there a cycle, and which partner edge comes first with an ancestor. */
function naiveProblem(relationships: Relationship[]): { cycle: boolean; partner: number | null } {
  const cycle = relationships.some((r) => r.type === 'parent' && reaches(relationships, r.to, r.from))
  const partner = relationships.findIndex(
    (r) => r.type !== 'parent' && (reaches(relationships, r.from, r.to) || reaches(relationships, r.to, r.from)),
  )
  return { cycle, partner: partner === -1 ? null : partner }
}

describe('payload 0.2.0 rules', () => {
  const schema = new Ajv2020({ allErrors: true }).compile(payloadJsonSchema('0.2.0'))
  const released = (version: string, file: string): unknown =>
    JSON.parse(readFileSync(new URL(`../../dist/chart/v${version}/${file}`, import.meta.url), 'utf8'))

  it('accepts every payload 0.1.x published: its examples pass the 0.2.0 schema and rules', () => {
    for (const version of ['0.1.0', '0.1.1']) {
      const payload = released(version, 'example.json')
      expect(schema(payload), JSON.stringify(schema.errors)).toBe(true)
      expect(checkPayloadRules(payload as Payload), version).toBeNull()
    }
  })

  it("is a superset of 0.1.0's schema: every property 0.1.0 published is there, with the same requirements", () => {
    interface Node {
      properties?: Record<string, Node>
      required?: string[]
      items?: Node
    }
    const old = released('0.1.0', 'payload.schema.json') as Node
    const now = payloadJsonSchema('0.2.0') as Node
    const compare = (a: Node, b: Node, at: string): void => {
      expect(b.required ?? [], at).toEqual(a.required ?? [])
      for (const [name, child] of Object.entries(a.properties ?? {})) {
        const next = b.properties?.[name]
        expect(next, `${at}/${name}`).toBeDefined()
        compare(child, next ?? {}, `${at}/${name}`)
      }
      if (a.items) compare(a.items, b.items ?? {}, `${at}/items`)
    }
    compare(old, now, '')
  })

  it('says what each new field means in the published schema', () => {
    interface Node {
      properties?: Record<string, Node & { description?: string }>
      items?: Node
    }
    const schemaOf = payloadJsonSchema('0.2.0') as Node
    const at = (node: Node, ...path: string[]): Node & { description?: string } =>
      path.reduce<Node>((n, key) => (key === '[]' ? (n.items ?? {}) : (n.properties?.[key] ?? {})), node)
    const fields = [
      ['household', 'currency'],
      ['household', 'asOf'],
      ['relationships', '[]', 'parentKind'],
      ['relationships', '[]', 'since'],
      ['relationships', '[]', 'until'],
      ['entities', '[]', 'shortName'],
      ['entities', '[]', 'valueAsOf'],
      ['entities', '[]', 'kind'],
      ['links', '[]', 'type'],
      ['links', '[]', 'beneficiaryType'],
    ]
    for (const path of fields) expect(at(schemaOf, ...path).description, path.join('/')).toMatch(/\w{4,}.*\w/)
    // The estate defaults come from the records' table: a kind added there is named here.
    expect(at(schemaOf, 'entities', '[]', 'estate').description).toContain('qtip')
  })

  it('validates the new fields by the schema: currency code, dates, a 40-character short name, the records’ words', () => {
    const base = { household: { name: 'T' }, people: people('a') }
    expect(schema({ ...base, household: { name: 'T', currency: 'EUR', asOf: '2025-06-30' } })).toBe(true)
    expect(schema({ ...base, household: { name: 'T', currency: 'usd' } })).toBe(false)
    expect(schema({ ...base, household: { name: 'T', asOf: '2025-13-01' } })).toBe(false)
    const entity = (more: object) => ({ ...base, entities: [{ id: 'e', name: 'E', kind: 'qprt', ...more }] })
    expect(schema(entity({ shortName: 'QPRT-1', valueAsOf: '2024-12-31' }))).toBe(true)
    expect(schema(entity({ shortName: 'x'.repeat(41) }))).toBe(false)
    expect(schema(entity({ shortName: '  ' }))).toBe(false)
    expect(schema(entity({ kind: 'spaceship' }))).toBe(false)
    expect(schema({ ...base, relationships: [{ from: 'a', to: 'a', type: 'parent', parentKind: 'godparent' }] })).toBe(
      false,
    )
    expect(
      schema({ ...entity({}), links: [{ from: 'a', to: 'e', type: 'beneficiary', beneficiaryType: 'residual' }] }),
    ).toBe(false)
  })

  const household = (more: Partial<Payload>): Payload => ({
    household: { name: 'T' },
    people: people('a', 'b'),
    entities: [
      { id: 'slat', name: 'SLAT', kind: 'slat' },
      { id: 'llc', name: 'LLC', kind: 'llc' },
      { id: 'home', name: 'Home', kind: 'realEstate' },
      { id: 'policy', name: 'Policy', kind: 'lifeInsurance' },
      { id: 'bank', name: 'Bank', kind: 'corporateTrustee' },
    ],
    ...more,
  })
  const withLink = (link: NonNullable<Payload['links']>[number]) => checkPayloadRules(household({ links: [link] }))

  it('refuses parentKind on a couple, dates on a parent, and a marriage that ends before it begins', () => {
    const couple = (more: Partial<Relationship>) =>
      checkPayloadRules(household({ relationships: [{ from: 'a', to: 'b', type: 'partner', ...more }] }))
    expect(couple({ parentKind: 'adopted' })).toEqual({
      path: '/relationships/0/parentKind',
      message:
        '/relationships/0/parentKind: is set on this partner relationship; parentKind is for parent relationships only: leave it out or make the type parent',
    })
    expect(couple({ since: '2001-01-01', until: '2000-12-31' })).toEqual({
      path: '/relationships/0/until',
      message:
        '/relationships/0/until: is before since; a marriage or partnership ends after it begins: correct one of the two dates',
    })
    expect(couple({ since: '2001-01-01', until: '2001-01-01' })).toBeNull()
    expect(couple({ until: '1999-01-01' })).toBeNull()
    const parentOf = (more: Partial<Relationship>) =>
      checkPayloadRules(household({ relationships: [{ from: 'a', to: 'b', type: 'parent', ...more }] }))
    expect(parentOf({ parentKind: 'step' })).toBeNull()
    expect(parentOf({ until: '2001-01-01' })?.path).toBe('/relationships/0/until')
    expect(parentOf({ since: '2001-01-01' })?.message).toContain('since and until date a marriage or partnership')
  })

  it('refuses a party that holds a value, a value date or an estate side', () => {
    for (const field of ['value', 'valueAsOf', 'estate'] as const) {
      const value = { value: 5, valueAsOf: '2024-01-01', estate: 'out' }[field]
      const payload = household({})
      payload.entities = [...(payload.entities ?? []), { id: 'firm', name: 'Firm', kind: 'lawFirm', [field]: value }]
      expect(checkPayloadRules(payload), field).toEqual({
        path: `/entities/5/${field}`,
        message: `/entities/5/${field}: is set on an entity of kind lawFirm, a party that holds nothing and is never counted: leave value, valueAsOf and estate out, or choose a kind that holds value`,
      })
    }
  })

  it('refuses links a party cannot have, as the records API does: owned, benefiting, insured, owning', () => {
    for (const type of ['owner', 'generalPartner', 'limitedPartner', 'beneficiary', 'insured'] as const)
      expect(withLink({ from: 'a', to: 'bank', type }), type).toEqual({
        path: '/links/0/to',
        message: `/links/0/to: is of kind corporateTrustee, a party that holds nothing, so it cannot have a ${type}: link the entity that holds the value instead`,
      })
    for (const type of ['owner', 'beneficiary'] as const)
      expect(withLink({ from: 'bank', to: 'llc', type }), type).toEqual({
        path: '/links/0/from',
        message: `/links/0/from: is of kind corporateTrustee, a party that holds nothing, so it cannot be a ${type}: name the person or entity that is, or make the party a trustee or successorTrustee`,
      })
    expect(withLink({ from: 'bank', to: 'slat', type: 'trustee' })).toBeNull()
    expect(withLink({ from: 'bank', to: 'slat', type: 'successorTrustee' })).toBeNull()
  })

  it('refuses a link type to a kind it does not fit, but never a link in 0.1.x words', () => {
    expect(withLink({ from: 'a', to: 'home', type: 'trustee' })).toEqual({
      path: '/links/0/type',
      message:
        '/links/0/type: is trustee, which goes to a trust or a charity only, not to kind realEstate: choose the type that fits (owner for a holding or a business entity)',
    })
    expect(withLink({ from: 'a', to: 'slat', type: 'insured' })?.path).toBe('/links/0/type')
    expect(withLink({ from: 'a', to: 'home', type: 'generalPartner', share: 5 })?.path).toBe('/links/0/type')
    expect(withLink({ from: 'a', to: 'policy', type: 'insured' })).toBeNull()
    expect(withLink({ from: 'a', to: 'llc', type: 'limitedPartner', share: 5 })).toBeNull()
    // 0.1.x accepted a grantor of an LLC and a trustee with a share: still valid.
    expect(withLink({ from: 'a', to: 'llc', type: 'grantor' })).toBeNull()
    expect(withLink({ from: 'a', to: 'slat', type: 'trustee', share: 10 })).toBeNull()
  })

  it('refuses a share on a new type that has none, and beneficiaryType on anything but a beneficiary', () => {
    expect(withLink({ from: 'a', to: 'slat', type: 'successorTrustee', share: 10 })).toEqual({
      path: '/links/0/share',
      message:
        '/links/0/share: is set on this successorTrustee link, which has no share; shares are for beneficiary, owner, generalPartner and limitedPartner links: leave it out',
    })
    expect(withLink({ from: 'a', to: 'llc', type: 'owner', beneficiaryType: 'primary' })).toEqual({
      path: '/links/0/beneficiaryType',
      message:
        '/links/0/beneficiaryType: is set on this owner link; beneficiaryType is for beneficiary links only: leave it out or make the type beneficiary',
    })
    expect(withLink({ from: 'a', to: 'slat', type: 'beneficiary', share: 40, beneficiaryType: 'remainder' })).toBeNull()
  })
})
