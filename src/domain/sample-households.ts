// The sample households every new (demo) organization starts with: realistic estate-planning
// clients — couples, a widow with DSUE, blended families, three generations — so that lists,
// search, sorting by members and the sample filter all have something to show.
import { NO_OPTIONAL_FIELDS, type HouseholdFields } from './household-input.ts'
import type { NewMember } from '../store/households.ts'

export interface SampleAdvisor {
  key: string
  name: string
  email: string
}

export interface SampleHousehold {
  fields: HouseholdFields
  members: NewMember[]
  assignments: Array<{ advisor: string; role: 'leadAdvisor' | 'advisor' | 'paraplanner' | 'serviceAssociate' }>
}

export const SAMPLE_ADVISORS: SampleAdvisor[] = [
  { key: 'avery', name: 'Jordan Avery', email: 'jordan.avery@example.com' },
  { key: 'raman', name: 'Priya Raman', email: 'priya.raman@example.com' },
  { key: 'ortiz', name: 'Sam Ortiz', email: 'sam.ortiz@example.com' },
]

const none = NO_OPTIONAL_FIELDS

export const SAMPLE_HOUSEHOLDS: SampleHousehold[] = [
  {
    fields: { ...none, name: 'Whitfield Family', primaryClientAsDonor: true, coClientAsDonor: true, metadata: { crmId: 'SF-00412', segment: 'multi-generational' } },
    members: [
      { name: 'Margaret Whitfield', role: 'primaryClient', birthDate: '1958-04-12' },
      { name: 'Thomas Whitfield', role: 'coClient', birthDate: '1956-09-30' },
      { name: 'Emily Whitfield-Hart', role: 'child', birthDate: '1984-02-17' },
      { name: 'James Whitfield', role: 'child', birthDate: '1987-11-03' },
      { name: 'Olivia Hart', role: 'grandchild', birthDate: '2012-06-21' },
      { name: 'Noah Hart', role: 'grandchild', birthDate: '2015-01-09' },
    ],
    assignments: [{ advisor: 'avery', role: 'leadAdvisor' }, { advisor: 'ortiz', role: 'paraplanner' }],
  },
  {
    fields: { ...none, name: 'Lindqvist Household', deceasedSpouseName: 'Harold Lindqvist', dsueReceived: 5_490_000, dsueDateOfDeath: '2021-03-14', primaryClientAsDonor: true },
    members: [
      { name: 'Ingrid Lindqvist', role: 'primaryClient', birthDate: '1949-08-02' },
      { name: 'Erik Lindqvist', role: 'child', birthDate: '1976-05-19' },
      { name: 'Astrid Lindqvist Moreau', role: 'child', birthDate: '1979-12-01' },
      { name: 'Elsa Moreau', role: 'grandchild', birthDate: '2008-03-27' },
    ],
    assignments: [{ advisor: 'raman', role: 'leadAdvisor' }],
  },
  {
    fields: { ...none, name: 'Okafor Family', primaryClientAsDonor: true, coClientAsDonor: false },
    members: [
      { name: 'Chidi Okafor', role: 'primaryClient', birthDate: '1971-01-23', email: 'chidi.okafor@example.com' },
      { name: 'Grace Okafor', role: 'coClient', birthDate: '1973-07-08' },
      { name: 'Adaeze Okafor', role: 'child', birthDate: '2001-10-14' },
      { name: 'Emeka Okafor', role: 'child', birthDate: '2004-04-04' },
      { name: 'Ngozi Okafor', role: 'parent', birthDate: '1945-02-11' },
    ],
    assignments: [{ advisor: 'avery', role: 'leadAdvisor' }, { advisor: 'raman', role: 'advisor' }],
  },
  {
    fields: { ...none, name: 'Ramirez–Chen Household', metadata: { source: 'referral', referredBy: 'CPA partner' } },
    members: [
      { name: 'Sofia Ramirez', role: 'primaryClient', birthDate: '1982-06-30' },
      { name: 'David Chen', role: 'coClient', birthDate: '1980-03-15' },
      { name: 'Mateo Chen-Ramirez', role: 'child', birthDate: '2014-09-09' },
      { name: 'Lucía Ramirez', role: 'child', birthDate: '2006-12-24' },
    ],
    assignments: [{ advisor: 'raman', role: 'leadAdvisor' }, { advisor: 'ortiz', role: 'serviceAssociate' }],
  },
  {
    fields: { ...none, name: 'Smith Family', primaryClientAsDonor: true, coClientAsDonor: true },
    members: [
      { name: 'Robert Smith', role: 'primaryClient', birthDate: '1953-10-05' },
      { name: 'Linda Smith', role: 'coClient', birthDate: '1955-01-28' },
      { name: 'Michael Smith', role: 'child', birthDate: '1980-08-16' },
      { name: 'Sarah Smith-Patel', role: 'child', birthDate: '1983-04-22' },
      { name: 'Aria Patel', role: 'grandchild', birthDate: '2016-11-30' },
      { name: 'Dev Patel', role: 'grandchild', birthDate: '2019-02-14' },
      { name: 'Evelyn Smith', role: 'parent', birthDate: '1931-07-19', deathDate: '2024-01-05' },
    ],
    assignments: [{ advisor: 'avery', role: 'leadAdvisor' }],
  },
  {
    fields: { ...none, name: 'Nakamura Household', coClientAsDonor: true },
    members: [
      { name: 'Kenji Nakamura', role: 'primaryClient', birthDate: '1966-02-02' },
      { name: 'Aiko Nakamura', role: 'coClient', birthDate: '1968-09-18' },
      { name: 'Hiroshi Nakamura', role: 'parent', birthDate: '1938-12-07' },
    ],
    assignments: [{ advisor: 'ortiz', role: 'advisor' }],
  },
  {
    fields: { ...none, name: 'Goldsmith Household' },
    members: [
      { name: 'Rebecca Goldsmith', role: 'primaryClient', birthDate: '1975-05-05', email: 'rebecca.goldsmith@example.com' },
      { name: 'Aaron Goldsmith', role: 'sibling', birthDate: '1972-03-03' },
    ],
    assignments: [],
  },
  {
    fields: { ...none, name: "Fitzgerald–O'Brien Household", deceasedSpouseName: 'Siobhan Fitzgerald', dsueReceived: 2_125_000.5, dsueDateOfDeath: '2019-10-28' },
    members: [
      { name: 'Patrick Fitzgerald', role: 'primaryClient', birthDate: '1950-03-17' },
      { name: "Maeve O'Brien", role: 'coClient', birthDate: '1957-06-06' },
      { name: 'Liam Fitzgerald', role: 'child', birthDate: '1982-01-31' },
      { name: "Clodagh O'Brien", role: 'child', birthDate: '1990-08-12' },
    ],
    assignments: [{ advisor: 'avery', role: 'leadAdvisor' }, { advisor: 'raman', role: 'advisor' }, { advisor: 'ortiz', role: 'paraplanner' }],
  },
]
