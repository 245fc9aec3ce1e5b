// Payload 0.3.0's estate facts (chart/src/estate-fact-rules.ts and the schema in chart/payload.ts):
// every rule refuses at the JSON Pointer of the offending field with a message saying what to do,
// and a payload that says them right (or says none of them) passes.
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { checkPayloadRules } from '../../chart/src/payload-rules.ts'
import { payloadJsonSchema, type Payload } from '../../chart/payload.ts'

const base: Payload = {
  household: { name: 'Chen' },
  people: [
    { id: 'robert', name: 'Robert', role: 'primaryClient' },
    { id: 'linda', name: 'Linda', role: 'coClient' },
    { id: 'emily', name: 'Emily', role: 'child' },
    { id: 'tom', name: 'Tom', role: 'spouse', deathDate: '2019-01-01' },
  ],
  entities: [
    { id: 'trust', name: 'Family trust', kind: 'revocableTrust', value: 100 },
    { id: 'bypass', name: 'Bypass trust', kind: 'creditShelterTrust' },
    { id: 'bank', name: 'First Coastal', kind: 'corporateTrustee' },
  ],
}
const withFacts = (facts: Partial<Payload>): Payload => ({ ...base, ...facts })
const pathOf = (payload: Payload) => checkPayloadRules(payload)?.path

describe('payload 0.3.0 estate facts', () => {
  it('accepts every fact said right, and a payload saying none', () => {
    expect(checkPayloadRules(base)).toBeNull()
    const full = withFacts({
      people: base.people.map((person) =>
        person.id === 'linda'
          ? { ...person, usCitizen: false, dsueReceived: { amount: 5, from: 'tom', portabilityElected: true } }
          : person,
      ),
      gifts: [{ donor: 'robert', taxableGifts: 10, exclusionUsed: 10 }, { donor: 'linda' }],
      dispositions: [
        { at: 'robert', to: 'bypass', formula: 'unusedExclusion' },
        { at: 'robert', from: 'trust', to: 'emily', share: 60 },
        { at: 'robert', from: 'trust', to: 'linda', share: 40 },
        { at: 'linda', to: 'emily', amount: 1000 },
      ],
      assumptions: { firstDeath: 'linda', firstDeathYear: 2030, secondDeathYear: 2030, portabilityElected: false },
    })
    expect(checkPayloadRules(full)).toBeNull()
    const validate = new Ajv2020({ strict: true }).compile(payloadJsonSchema('0.3.0'))
    expect(validate(full), JSON.stringify(validate.errors)).toBe(true)
  })

  it('refuses a DSUE from no one, or from the person themself', () => {
    const dsueFrom = (from: string) =>
      withFacts({
        people: base.people.map((p) => (p.id === 'linda' ? { ...p, dsueReceived: { amount: 1, from } } : p)),
      })
    expect(pathOf(dsueFrom('ghost'))).toBe('/people/1/dsueReceived/from')
    expect(checkPayloadRules(dsueFrom('linda'))?.message).toContain('the spouse who died before')
    // A DSUE comes from a spouse who died: never from a living client.
    expect(checkPayloadRules(dsueFrom('robert'))?.message).toBe(
      '/people/1/dsueReceived/from: is a living client; a DSUE comes from a spouse who died: name that spouse, or leave from out',
    )
  })

  it('refuses a gift by no one, a donor twice, and more exclusion used than gifts', () => {
    expect(pathOf(withFacts({ gifts: [{ donor: 'ghost', taxableGifts: 1 }] }))).toBe('/gifts/0/donor')
    expect(pathOf(withFacts({ gifts: [{ donor: 'robert' }, { donor: 'robert' }] }))).toBe('/gifts/1/donor')
    expect(checkPayloadRules(withFacts({ gifts: [{ donor: 'robert', exclusionUsed: 0 }] }))?.message).toBe(
      '/gifts/0/exclusionUsed: is set without taxableGifts; the exclusion used is a part of the gifts: give taxableGifts too',
    )
    const over = checkPayloadRules(withFacts({ gifts: [{ donor: 'robert', taxableGifts: 1, exclusionUsed: 2 }] }))
    expect(over).toEqual({
      path: '/gifts/0/exclusionUsed',
      message:
        '/gifts/0/exclusionUsed: is more than taxableGifts; gifts cannot use more exclusion than their own amount: correct one of the two',
    })
  })

  it('refuses a disposition at the death of someone who is not a client, or of no one', () => {
    expect(
      checkPayloadRules(withFacts({ dispositions: [{ at: 'emily', to: 'bypass', share: 10 }] }))?.message,
    ).toContain('not a client')
    expect(pathOf(withFacts({ dispositions: [{ at: 'ghost', to: 'bypass', share: 10 }] }))).toBe('/dispositions/0/at')
  })

  it('refuses a source that is no entity or a party, and a recipient that is nothing, a party, the decedent or the source', () => {
    const one = (disposition: NonNullable<Payload['dispositions']>[number]) =>
      checkPayloadRules(withFacts({ dispositions: [disposition] }))
    expect(one({ at: 'robert', from: 'emily', to: 'bypass', share: 1 })?.path).toBe('/dispositions/0/from')
    expect(one({ at: 'robert', from: 'bank', to: 'bypass', share: 1 })?.message).toContain('a party that holds nothing')
    expect(one({ at: 'robert', to: 'ghost', share: 1 })?.path).toBe('/dispositions/0/to')
    expect(one({ at: 'robert', to: 'bank', share: 1 })?.message).toContain('cannot receive')
    expect(one({ at: 'robert', to: 'robert', share: 1 })?.message).toContain('is the decedent')
    expect(one({ at: 'robert', from: 'trust', to: 'trust', share: 1 })?.message).toContain('the entity disposed of')
  })

  it('asks for exactly one of share, amount and formula', () => {
    const one = (disposition: NonNullable<Payload['dispositions']>[number]) =>
      checkPayloadRules(withFacts({ dispositions: [disposition] }))?.message
    expect(one({ at: 'robert', to: 'emily' })).toBe(
      '/dispositions/0: says neither share, amount nor formula: give exactly one of them',
    )
    expect(one({ at: 'robert', to: 'emily', share: 10, amount: 5 })).toBe(
      '/dispositions/0: says share and amount: give exactly one of share, amount and formula',
    )
  })

  it("refuses shares of one decedent's one source adding up to more than 100, at the one that tips it", () => {
    const shares = (second: number, from?: string) =>
      withFacts({
        dispositions: [
          { at: 'robert', to: 'emily', share: 60 },
          { at: 'linda', to: 'emily', share: 60 },
          { at: 'robert', to: 'bypass', share: second, ...(from === undefined ? {} : { from }) },
        ],
      })
    expect(checkPayloadRules(shares(40))).toBeNull()
    expect(checkPayloadRules(shares(50, 'trust'))).toBeNull()
    expect(checkPayloadRules(shares(40.5))?.message).toBe(
      "/dispositions/2/share: brings the shares of this decedent's estate to 100.5 %; they add up to at most 100",
    )
    // Written rounded, not as the float sum (60 + 40.01 is 100.00999999999999 in binary).
    expect(checkPayloadRules(shares(40.01))?.message).toContain('to 100.01 %')
  })

  it('refuses a first death who is not a client and a second death before the first', () => {
    expect(pathOf(withFacts({ assumptions: { firstDeath: 'emily' } }))).toBe('/assumptions/firstDeath')
    expect(pathOf(withFacts({ assumptions: { firstDeathYear: 2031, secondDeathYear: 2030 } }))).toBe(
      '/assumptions/secondDeathYear',
    )
  })

  it('takes the schema as the bounds: years from 2025 to 2200, one formula, no unknown field', () => {
    const validate = new Ajv2020({ strict: true }).compile(payloadJsonSchema('0.3.0'))
    expect(validate(withFacts({ assumptions: { firstDeathYear: 2024 } }))).toBe(false)
    expect(validate(withFacts({ assumptions: { firstDeathYear: 2201 } }))).toBe(false)
    expect(validate(withFacts({ assumptions: { firstDeathYear: 2030.5 } }))).toBe(false)
    expect(validate({ ...base, dispositions: [{ at: 'robert', to: 'emily', formula: 'maritalDeduction' }] })).toBe(
      false,
    )
    expect(validate({ ...base, gifts: [{ donor: 'robert', taxableGifts: -1 }] })).toBe(false)
    expect(validate({ ...base, assumptions: { deathYear: 2030 } })).toBe(false)
  })

  it('keeps every payload 0.2.0 published valid', () => {
    const example = JSON.parse(
      readFileSync(new URL('../../dist/chart/v0.2.0/example.json', import.meta.url), 'utf8'),
    ) as Payload
    expect(checkPayloadRules(example)).toBeNull()
    expect(new Ajv2020({ strict: true }).compile(payloadJsonSchema('0.3.0'))(example)).toBe(true)
  })
})
