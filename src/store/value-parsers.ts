// How both stores turn column text into JavaScript values where their defaults differ or lose
// information; pg (db.ts) and the embedded database's thread (pglite-worker.ts) both use these.

// Type OIDs whose default parsing differs between `pg` and PGlite, or loses information.
const INT8 = 20
const NUMERIC = 1700
const DATE = 1082

// int8 holds counts here (never past 2^53); numeric holds money with 2 decimals (exact as a double
// up to 1e12); date stays a 'YYYY-MM-DD' string instead of a local-midnight Date.
export const VALUE_PARSERS: Record<number, (value: string) => unknown> = {
  [INT8]: Number,
  [NUMERIC]: Number,
  [DATE]: (value) => value,
}
