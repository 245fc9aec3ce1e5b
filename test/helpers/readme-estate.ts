// The README's estate walk-through, as a test and the README's screenshot script both run it: the
// walk-through's earlier steps over HTTP (the Alvarez household with Elena, Tomas and Lucia), then
// the README's shell block between the estate-walk-through markers, as written, with bash and curl.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { call } from './app.ts'

const run = promisify(execFile)
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
const REL = '/api/v1/relationships'
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** The shell block between the walk-through's markers. */
function walkThroughScript(): string {
  const start = README.indexOf('<!-- estate-walk-through')
  const end = README.indexOf('<!-- /estate-walk-through -->')
  const block = /```sh\n([\s\S]*?)```/.exec(README.slice(start, end))
  if (start < 0 || end < 0 || !block?.[1]) throw new Error('no estate walk-through block in the README')
  return block[1]
}

/** The variables the block assigns with $(post entities …), in order. */
export const ENTITY_VARIABLES = [...walkThroughScript().matchAll(/^(\w+)=\$\(post entities/gm)].map((m) => m[1] ?? '')
/** The link lines of the block: link "$FROM" type "$TO" [share]. */
export const LINK_LINES = [...walkThroughScript().matchAll(/link "\$(\w+)" (\w+) "\$(\w+)"(?: (\d+))?/g)].map((m) => ({
  from: m[1] ?? '',
  type: m[2] ?? '',
  to: m[3] ?? '',
  share: m[4] === undefined ? null : Number(m[4]),
}))

export interface WalkThrough {
  householdId: string
  /** Member and entity ids by the README's variable names (ELENA, RLT, …). */
  ids: Map<string, string>
  /** What the block printed: one line per link (its id), as a reader sees it. */
  linkOutput: string[]
}

async function created(url: string, key: string, body: Record<string, unknown>, wrapper: string): Promise<string> {
  const response = await call(url, key, { body })
  const id = (response.body[wrapper] as { id?: string } | undefined)?.id
  if (response.status !== 201 || id === undefined) throw new Error(`POST ${url}: ${JSON.stringify(response.body)}`)
  return id
}

/** Creates the walk-through's household and people, then runs the README's estate block. */
export async function runEstateWalkThrough(apiUrl: string, key: string): Promise<WalkThrough> {
  const householdId = await created(
    `${apiUrl}${REL}`,
    key,
    { name: 'Alvarez-Reyes Family', deceasedSpouseName: 'Miguel Alvarez', dsueDateOfDeath: '2020-05-17' },
    'household',
  )
  const members = `${apiUrl}${REL}/${householdId}/members`
  const ids = new Map<string, string>()
  const elena = await created(
    members,
    key,
    { name: 'Elena Alvarez', role: 'primaryClient', birthDate: '1958-04-02' },
    'member',
  )
  const tomas = await created(
    members,
    key,
    { name: 'Tomas Alvarez', role: 'coClient', relationships: [{ memberId: elena, type: 'spouse' }] },
    'member',
  )
  const lucia = await created(
    members,
    key,
    {
      name: 'Lucia Alvarez',
      role: 'child',
      relationships: [
        { memberId: elena, type: 'parent' },
        { memberId: tomas, type: 'parent' },
      ],
    },
    'member',
  )
  ids.set('ELENA', elena).set('TOMAS', tomas).set('LUCIA', lucia)

  const printVariables = ENTITY_VARIABLES.map((name) => `echo "${name}=$${name}"`).join('\n')
  const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', `${walkThroughScript()}\n${printVariables}`], {
    env: {
      PATH: process.env.PATH,
      API: `${apiUrl}/api/v1`,
      KEY: key,
      ID: householdId,
      ELENA: elena,
      TOMAS: tomas,
      LUCIA: lucia,
    },
  })
  // The link lines print their links' ids; the echo lines after the block name the entities'.
  const printed = stdout.trim().split('\n')
  for (const line of printed.slice(LINK_LINES.length)) {
    const [name = '', value = ''] = line.split('=')
    if (!UUID.test(value)) throw new Error(`${name}: the README's post printed "${value}" instead of an id`)
    ids.set(name, value)
  }
  return { householdId, ids, linkOutput: printed.slice(0, LINK_LINES.length) }
}
