// `npm run bench:growth`: how list page 1, search and create grow with an organization's size.
// Runs `npm run bench` once per size, each on a fresh database of its own holding one organization
// of that size, with one API process and the cases list, search and create; then puts the runs
// side by side. A request's cost at a size is the same run's ceiling req/s over the API's (the
// machine's speed cancels out), and its growth is that cost at the largest size over the smallest.
// Issue 18's target: list page 1 and create grow at most 1.5× from 10,000 to 1,000,000 households.
// Search must grow: its exact total counts every match, and the matches grow with the organization.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { fixed, type CaseFigures } from './report.ts'

const USAGE = `Usage: npm run bench:growth -- [--store postgres|pglite] [--sizes 10000,100000,1000000] [--duration S] [--warmup S]
  Runs npm run bench (cases list, search and create, one org, one API process) once per size, then
  prints each case's req/s, ratio to the ceiling and CPU per request at each size, and its growth.`
/** Cases whose cost must stay flat, and by how much it may grow from the smallest size to the largest. */
const FLAT = { list: 1.5, create: 1.5 } as const
const CASES = ['list', 'search', 'create'] as const

interface GrowthOptions {
  store: string
  sizes: number[]
  passThrough: string[]
}

function parse(argv: string[]): GrowthOptions | string {
  const options: GrowthOptions = { store: 'postgres', sizes: [10_000, 100_000, 1_000_000], passThrough: [] }
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    const value = argv[i + 1]
    if (flag === '--help') return USAGE
    if (value === undefined) return `${flag ?? ''} needs a value\n\n${USAGE}`
    i++
    if (flag === '--store') options.store = value
    else if (flag === '--sizes') {
      options.sizes = value.split(',').map(Number)
      if (options.sizes.some((size) => !Number.isInteger(size) || size < 50) || options.sizes.length < 2)
        return `--sizes takes two or more whole numbers ≥ 50, got "${value}"\n\n${USAGE}`
    } else if (flag === '--duration' || flag === '--warmup') options.passThrough.push(flag, value)
    else return `unknown flag "${flag ?? ''}"\n\n${USAGE}`
  }
  return options
}

/** One `npm run bench`, its report on stderr with its progress; answers its cases' figures. */
async function benchAt(households: number, options: GrowthOptions, dir: string): Promise<CaseFigures[]> {
  const jsonFile = path.join(dir, `${households}.json`)
  const args = [
    '--import',
    'tsx',
    fileURLToPath(new URL('./run.ts', import.meta.url)),
    ...['--store', options.store, '--households', String(households), '--orgs', '1', '--instances', '1'],
    ...['--cases', CASES.join(','), '--json', jsonFile, ...options.passThrough],
  ]
  console.error(`\n== ${households.toLocaleString('en-US')} households: npm run bench -- ${args.slice(3).join(' ')}`)
  const child = spawn(process.execPath, args, { stdio: ['ignore', process.stderr, process.stderr] })
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  if (code !== 0) throw new Error(`npm run bench at ${households} households ended with ${String(code)}`)
  return JSON.parse(readFileSync(jsonFile, 'utf8')) as CaseFigures[]
}

const format = (value: number | undefined, digits = 0) => (value === undefined ? 'n/a' : fixed(value, digits))

function table(runs: CaseFigures[][], sizes: number[]): string[] {
  const header = sizes.map((size) => format(size)).join(' | ')
  const lines = [
    `| case | ${header} | growth ${format(sizes[0])} → ${format(sizes.at(-1))} | target |`,
    `|---|${sizes.map(() => '---|').join('')}---:|---|`,
  ]
  for (const name of CASES) {
    const figures = runs.map((run) => run.find((figure) => figure.name === name))
    const cells = figures.map((figure) =>
      figure
        ? `${format(figure.reqPerSec)} req/s, ${format((figure.reqPerSec / figure.ceilingReqPerSec) * 100, 2)} % of ceiling; CPU ${format(figure.apiCpuMs, 2)} + ${format(figure.databaseCpuMs, 2)} ms`
        : 'n/a',
    )
    const first = figures[0]
    const last = figures.at(-1)
    // Cost is the inverse of the ratio to the ceiling: growth is the first ratio over the last.
    const growth =
      first && last ? first.reqPerSec / first.ceilingReqPerSec / (last.reqPerSec / last.ceilingReqPerSec) : undefined
    const limit = name in FLAT ? FLAT[name as keyof typeof FLAT] : undefined
    const target =
      limit === undefined || growth === undefined ? '—' : `≤ ${limit}× ${growth <= limit ? '✓ met' : '✗ missed'}`
    lines.push(`| ${first?.label ?? name} | ${cells.join(' | ')} | ${format(growth, 2)}× | ${target} |`)
  }
  return lines
}

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2))
  if (typeof options === 'string') {
    console.error(options)
    process.exitCode = options === USAGE ? 0 : 2
    return
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-growth-'))
  try {
    const runs: CaseFigures[][] = []
    for (const size of options.sizes) runs.push(await benchAt(size, options, dir))
    console.log(
      [
        '',
        `Cost growth (${options.store === 'pglite' ? 'PGlite' : 'PostgreSQL'}; one organization of each size, each on its own fresh database; CPU: API process + database per request)`,
        '',
        ...table(runs, options.sizes),
        '',
        "growth: the ratio to the same run's ceiling at the smallest size over that at the largest (how much more a request costs).",
        '',
      ].join('\n'),
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
