// A partner's own id for a member or an entity. It is the chart payload's id rule (chart/payload.ts,
// which the released chart builds from and so keeps its own copy), so an id that a partner files
// through the API is also a valid id in the payload GET …/chart builds from the records.

export const EXTERNAL_ID_PATTERN = '^[A-Za-z0-9_.:-]{1,64}$'
