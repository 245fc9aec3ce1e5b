// The web app places an API refusal by its `field` (a JSON Pointer), never by the words of its
// sentence: a sentence that starts with another field's name is still placed where `field` points.
import { describe, expect, it } from 'vitest'
import { inputOfField, sentenceFor } from '../../src/web/client/households/problem-field.ts'

const HOUSEHOLD = ['name', 'dsueReceived', 'metadata']
const PEOPLE = ['name', 'members.0.name', 'members.0.email', 'members.1.email', 'members.1.relationships']

describe('inputOfField', () => {
  it('finds the input its pointer names, or the nearest one that holds it', () => {
    expect(inputOfField('/dsueReceived', HOUSEHOLD)).toBe('dsueReceived')
    expect(inputOfField('/metadata/crm/id', HOUSEHOLD)).toBe('metadata')
    expect(inputOfField('/members/0/email', PEOPLE)).toBe('members.0.email')
    expect(inputOfField('/relationships/2/memberId', PEOPLE, 'members.1.')).toBe('members.1.relationships')
    expect(inputOfField('/email', PEOPLE, 'members.1.')).toBe('members.1.email')
  })

  it('goes by the pointer, not by the sentence', () => {
    // A sentence that starts with "name" but a field that points at the email: the email it is.
    expect(inputOfField('/email', PEOPLE, 'members.0.')).toBe('members.0.email')
    expect(sentenceFor('name must not be blank', '/email', 'Email')).toBe('name must not be blank')
  })

  it('places nothing without a field, for the body as a whole, or for a field the form does not have', () => {
    expect(inputOfField(undefined, HOUSEHOLD)).toBeUndefined()
    expect(inputOfField('', HOUSEHOLD)).toBeUndefined()
    expect(inputOfField('/color', HOUSEHOLD)).toBeUndefined()
    // "names" is not inside "name": only whole keys hold a path.
    expect(inputOfField('/names', HOUSEHOLD)).toBeUndefined()
  })

  it('unescapes ~1 and ~0 (RFC 6901)', () => {
    expect(inputOfField('/a~1b/c~0d', ['a/b.c~d'])).toBe('a/b.c~d')
  })
})

describe('sentenceFor', () => {
  it("starts the API's sentence with the label when it starts with the field's path", () => {
    expect(sentenceFor('name must not be blank', '/name', 'Household name')).toBe('Household name must not be blank')
    expect(sentenceFor('email must be a plausible address', '/email', 'Email of person 2')).toBe(
      'Email of person 2 must be a plausible address',
    )
    expect(sentenceFor('relationships.1.type must be one of: spouse', '/relationships/1/type', 'Relationships')).toBe(
      'Relationships must be one of: spouse',
    )
  })

  it('keeps any other sentence as it is', () => {
    const kinship = 'Parent links would make Ann her own ancestor.'
    expect(sentenceFor(kinship, '/relationships/0/memberId', 'Relationships')).toBe(kinship)
    // About a key inside the group, named by its own name only: the label would not fit it.
    expect(sentenceFor('memberId is required', '/relationships/0/memberId', 'Relationships')).toBe(
      'memberId is required',
    )
    expect(sentenceFor('name must not be blank', undefined, 'Household name')).toBe('name must not be blank')
  })
})
