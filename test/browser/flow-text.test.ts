// The Flow group of the text version (chart/src/views/text-version.ts flowLines): besides each
// death's figures, who ends with what, the assumptions and the disclaimer, it says every warning the
// Flow view lists, so a reader of the text alone learns what was assumed. It runs in Node; it sits
// with the browser tests because text-version.ts is typed against the DOM.
import { describe, expect, it } from 'vitest'
import { projectEstate } from '../../chart/src/flow/project-estate.ts'
import { amountFormatter } from '../../chart/src/views/amount-format.ts'
import { flowLines } from '../../chart/src/views/text-version.ts'
import { TODAY_ISO, WORKED_CASES } from '../chart/estate-worked-cases.ts'

describe('the Flow group of the text version', () => {
  it('says each warning of the projection, after who ends with what', () => {
    const { payload } = WORKED_CASES.find((each) => each.name === 'a non-citizen spouse')!
    const projection = projectEstate(payload, { today: new Date(TODAY_ISO) })
    const lines = flowLines(projection, amountFormatter('USD'))
    expect(projection.warnings.map((warning) => warning.code)).toEqual(['nonCitizenSpouse'])
    expect(lines[3]).toBe(
      "Note: Linda is not a US citizen: what passes to them at Robert's death gets no marital deduction. A QDOT could defer the tax; it is not modelled here.",
    )
    expect(lines[2]).toMatch(/^Who ends with what: /)
    expect(lines.at(-1)).toBe(projection.disclaimer)
  })

  it('says no note when there is nothing to warn of', () => {
    const { payload } = WORKED_CASES.find((each) => each.name === "the README's couple")!
    const lines = flowLines(projectEstate(payload, { today: new Date(TODAY_ISO) }), amountFormatter('USD'))
    expect(lines.filter((line) => line.startsWith('Note: '))).toEqual([])
  })
})
