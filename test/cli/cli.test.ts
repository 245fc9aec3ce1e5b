// `hearth` arguments: help for everything, and wrong arguments refused with exit 2 and one line
// on stderr that says what is valid — before anything touches the data directory.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { PERMISSIONS } from '../../src/domain/permissions.ts'
import { ORIGIN_RULE } from '../../src/domain/origins.ts'
import { expectOneLineError, hearth, killAll, type Result } from '../helpers/cli.ts'

const COMMANDS = [
  'serve',
  'migrate',
  'doctor',
  'orgs create',
  'orgs limits',
  'orgs list',
  'keys create',
  'keys list',
  'keys revoke',
  'origins add',
  'origins remove',
  'origins list',
  'samples add',
  'usage',
  'users add',
  'users list',
  'audit',
  'webhooks add',
  'webhooks list',
  'webhooks remove',
  'webhooks enable',
  'webhooks disable',
  'webhooks rotate-secret',
  'webhooks test',
  'webhooks deliveries',
  'webhooks retry',
]

// Every case gets its own data directory path below this one; none may ever be created.
const parent = mkdtempSync(path.join(os.tmpdir(), 'hearth-cli-args-'))
let cases = 0
// Each case spawns `hearth` (about a second of CPU); vitest runs up to 5 of these tests at once.
const TIMEOUT = 120_000

/** Runs hearth with a data directory that does not exist, and says whether it still does not. */
async function runArgs(args: string[]): Promise<Result & { dataDirCreated: boolean }> {
  const dataDir = path.join(parent, `case-${++cases}`)
  const result = await hearth(args, { HEARTH_DATA_DIR: dataDir })
  return { ...result, dataDirCreated: existsSync(dataDir) }
}

async function expectUsageError(args: string[], ...expected: (RegExp | string)[]): Promise<string> {
  const result = await runArgs(args)
  expect(result.stdout).toBe('')
  const line = expectOneLineError(result, 2, /^hearth\b/, ...expected)
  expect(result.dataDirCreated, 'an argument error created the data directory').toBe(false)
  return line
}

afterAll(async () => {
  await killAll()
  expect(readdirSync(parent), 'no case may create its data directory').toEqual([])
  rmSync(parent, { recursive: true, force: true })
})

describe.concurrent('help', () => {
  it(
    'hearth --help (and hearth alone) lists every command and exits 0',
    async () => {
      for (const args of [['--help'], []]) {
        const result = await runArgs(args)
        expect(result.code, `hearth ${args.join(' ')}: ${result.stderr}`).toBe(0)
        expect(result.stderr).toBe('')
        expect(result.stdout).toContain('Usage: hearth <command> [options]')
        expect(result.stdout).toContain('--json')
        // The overview's command list is exactly the commands this file tests.
        const listed = result.stdout
          .split('Commands:\n')[1]
          ?.split('\n\n')[0]
          ?.split('\n')
          .map((line) => line.trim().split(/\s{2,}/)[0])
        expect(listed).toEqual(COMMANDS)
        expect(result.dataDirCreated).toBe(false)
      }
    },
    TIMEOUT,
  )

  it.each(COMMANDS)(
    'hearth %s --help shows its usage and exits 0',
    async (command) => {
      const result = await runArgs([...command.split(' '), '--help'])
      expect(result.code, result.stderr).toBe(0)
      expect(result.stderr).toBe('')
      expect(result.stdout).toContain(`Usage: hearth ${command}`)
      expect(result.stdout).toContain('--json')
      if (command === 'keys create') {
        expect(result.stdout).toContain(`permissions: ${PERMISSIONS.join(', ')}`)
        expect(result.stdout).toContain('--expires-in-days <n>')
      }
      if (command === 'origins add') expect(result.stdout).toContain(ORIGIN_RULE)
      if (command === 'usage') expect(result.stdout).toContain('--since <YYYY-MM-DD>')
      if (command === 'audit') expect(result.stdout).toContain('[--household <householdId>] [--limit <n>]')
      if (command === 'users add') expect(result.stdout).toContain('role: admin, advisor, viewer (default advisor)')
      expect(result.dataDirCreated).toBe(false)
    },
    TIMEOUT,
  )

  it(
    "-h works like --help and wins over the other arguments; a group's --help lists its commands",
    async () => {
      const short = await runArgs(['keys', 'list', '--org', 'not-a-uuid', '-h'])
      expect(short.code, short.stderr).toBe(0)
      expect(short.stdout).toContain('Usage: hearth keys list --org <orgId>')
      const group = await runArgs(['keys', '--help'])
      expect(group.code, group.stderr).toBe(0)
      for (const command of ['keys create', 'keys list', 'keys revoke'])
        expect(group.stdout).toContain(`hearth ${command}`)
      expect(short.dataDirCreated || group.dataDirCreated).toBe(false)
    },
    TIMEOUT,
  )
})

describe.concurrent('wrong arguments: exit 2, one line on stderr saying what is valid, no data directory', () => {
  const org = randomUUID()

  it(
    "an unknown command lists the commands; an unknown command of a group lists the group's",
    async () => {
      await expectUsageError(
        ['frobnicate'],
        'unknown command "frobnicate"',
        'the commands are: serve, migrate, doctor, orgs, keys, origins, samples, usage, users, audit',
      )
      await expectUsageError(
        ['keys', 'rotate'],
        'unknown command "keys rotate"',
        'the keys commands are: create, list, revoke',
      )
    },
    TIMEOUT,
  )

  it(
    "an unknown option names it and points at the command's help",
    async () => {
      await expectUsageError(
        ['orgs', 'create', '--name', 'Acme', '--colour', 'red'],
        "'--colour'",
        'see hearth orgs create --help',
      )
    },
    TIMEOUT,
  )

  it(
    'a missing --org says what it wants',
    async () => {
      await expectUsageError(['keys', 'list'], '--org is required: an organization id (hearth orgs list shows them)')
      await expectUsageError(['samples', 'add'], '--org is required: an organization id (hearth orgs list shows them)')
      await expectUsageError(['usage'], '--org is required: an organization id (hearth orgs list shows them)')
      await expectUsageError(['audit'], '--org is required: an organization id (hearth orgs list shows them)')
    },
    TIMEOUT,
  )

  it(
    'a malformed --org says it must be a UUID',
    async () => {
      await expectUsageError(
        ['keys', 'create', '--org', 'acme', '--permissions', 'embed:chart'],
        '--org must be an organization id (a UUID), got "acme"',
      )
    },
    TIMEOUT,
  )

  it(
    'a missing --name says what it wants',
    async () => {
      await expectUsageError(['orgs', 'create'], "--name is required: the organization's name")
    },
    TIMEOUT,
  )

  it(
    'an unknown permission is named and the valid permissions are listed',
    async () => {
      await expectUsageError(
        ['keys', 'create', '--org', org, '--permissions', 'relationships:read,admin'],
        'unknown permission admin;',
        `valid permissions are: ${PERMISSIONS.join(', ')}`,
      )
    },
    TIMEOUT,
  )

  it.each([
    ['http://example.com', 'http is allowed only for localhost'],
    ['https://x.com/path', '"https://x.com/path" is not a bare origin (did you mean https://x.com?)'],
    ['*', 'wildcards are not allowed'],
    ['null', '"null" is not a URL'],
    ['ftp://x', 'the scheme ftp: is not allowed'],
  ])(
    'origins add --origin %s is refused: %s',
    async (origin, reason) => {
      await expectUsageError(
        ['origins', 'add', '--org', org, '--origin', origin],
        `--origin ${reason}: expected ${ORIGIN_RULE}`,
      )
    },
    TIMEOUT,
  )

  it.each(['0', '3651', 'abc'])(
    'keys create --expires-in-days %s says it takes 1 to 3650 days',
    async (days) => {
      await expectUsageError(
        ['keys', 'create', '--org', org, '--permissions', 'relationships:read', '--expires-in-days', days],
        /--expires-in-days must be a whole number (of days )?from 1 to 3650$/,
      )
    },
    TIMEOUT,
  )

  // parseArgs calls "-3" ambiguous; the CLI must still say what the option accepts.
  it(
    'keys create --expires-in-days -3 says it takes 1 to 3650 days',
    async () => {
      await expectUsageError(
        ['keys', 'create', '--org', org, '--permissions', 'relationships:read', '--expires-in-days', '-3'],
        /--expires-in-days must be a whole number (of days )?from 1 to 3650$/,
      )
    },
    TIMEOUT,
  )

  it(
    'keys revoke wants a key id; an unexpected argument shows the usage',
    async () => {
      await expectUsageError(
        ['keys', 'revoke', 'idx_abc'],
        'give the id of the key to revoke (a UUID from hearth keys list), got "idx_abc"',
      )
      await expectUsageError(
        ['orgs', 'list', 'everything'],
        'unexpected argument "everything"; usage: hearth orgs list',
      )
    },
    TIMEOUT,
  )

  it(
    'audit --household must be a UUID and --limit a whole number from 1 to 10000; users add checks its email and role',
    async () => {
      await expectUsageError(
        ['audit', '--org', org, '--household', 'chens'],
        '--household must be a household id (a UUID), got "chens"',
      )
      for (const limit of ['0', '10001', 'all', '-5'])
        await expectUsageError(
          ['audit', '--org', org, '--limit', limit],
          '--limit must be a whole number from 1 to 10000',
        )
      await expectUsageError(
        ['users', 'add', '--org', org, '--email', 'not-an-email', '--name', 'Ann'],
        '--email must be an email address, got "not-an-email"',
      )
      await expectUsageError(
        ['users', 'add', '--org', org, '--email', 'ann@example.com', '--name', 'Ann', '--role', 'owner'],
        '--role must be one of admin, advisor, viewer, got "owner"',
      )
      await expectUsageError(
        ['users', 'add', '--org', org, '--email', 'ann@example.com', '--name', '   '],
        '--name must be 1 to 200 characters',
      )
    },
    TIMEOUT,
  )

  it(
    'serve --only accepts api or embed',
    async () => {
      await expectUsageError(['serve', '--only', 'both'], '--only must be api or embed, got "both"')
    },
    TIMEOUT,
  )

  // A group without its subcommand is an argument error: one line on stderr, exit 2.
  it(
    'a group without its subcommand is an argument error on stderr',
    async () => {
      await expectUsageError(['keys'], 'create, list, revoke')
    },
    TIMEOUT,
  )
})
