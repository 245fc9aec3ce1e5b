/** Who is calling: for now an API key; signed-in users join later with the same shape. */
export interface Principal {
  kind: 'apiKey'
  /** The credential's id: the key id. Rate limits and usage are counted per credential. */
  id: string
  orgId: string
  permissions: readonly string[]
}
