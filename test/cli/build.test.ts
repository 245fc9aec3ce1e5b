// The compiled `hearth`: bin/hearth.js runs build/, builds it when there is none or a source changed
// since (and says so), and answers --help without loading typebox or the servers. Each test works
// on a copy of the project, so the suite's own build/ is never touched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ROOT } from '../helpers/cli.ts'

const TIMEOUT = 180_000
let project: string

/** `node bin/hearth.js …args` in the copy, with the build check on (unlike the suite's other children). */
function hearthInCopy(args: string[], env: Record<string, string> = {}) {
  const base = { ...process.env }
  delete base.HEARTH_SKIP_BUILD_CHECK
  const result = spawnSync(process.execPath, [path.join(project, 'bin', 'hearth.js'), ...args], {
    cwd: project,
    env: { ...base, ...env },
    encoding: 'utf8',
    timeout: TIMEOUT,
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** Marks a source as edited now, after the last build began. */
function touch(file: string): void {
  const now = new Date()
  utimesSync(path.join(project, file), now, now)
}

beforeAll(() => {
  project = mkdtempSync(path.join(os.tmpdir(), 'hearth-build-'))
  for (const part of ['src', 'chart', 'sdk', 'scripts', 'bin', 'package.json', 'tsconfig.json'])
    cpSync(path.join(ROOT, part), path.join(project, part), { recursive: true })
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'))
})

afterAll(() => {
  rmSync(project, { recursive: true, force: true })
})

describe('the compiled hearth command', () => {
  it(
    'builds when there is no build yet, then runs the build as it is',
    () => {
      const first = hearthInCopy(['--help'])
      expect(first.code, first.stderr).toBe(0)
      expect(first.stderr).toBe('hearth: there is no build yet; building (npm run build)…\n')
      expect(first.stdout).toContain('Usage: hearth <command> [options]')
      expect(existsSync(path.join(project, 'build', 'src', 'cli', 'main.js'))).toBe(true)
      const manifest = JSON.parse(readFileSync(path.join(project, 'build', 'web', 'manifest.json'), 'utf8')) as {
        script: string
      }
      expect(existsSync(path.join(project, 'build', 'web', manifest.script))).toBe(true)

      const again = hearthInCopy(['--help'])
      expect(again.code, again.stderr).toBe(0)
      expect(again.stderr).toBe('')
      expect(again.stdout).toBe(first.stdout)
    },
    TIMEOUT,
  )

  it(
    'rebuilds when a source changed, so an edit is what runs',
    () => {
      const main = path.join(project, 'src', 'cli', 'main.ts')
      const source = readFileSync(main, 'utf8')
      const summary = 'create an organization'
      expect(source).toContain(`'${summary}'`)
      writeFileSync(main, source.replace(`'${summary}'`, `'${summary} (edited)'`))
      touch('src/cli/main.ts')

      const edited = hearthInCopy(['--help'])
      expect(edited.code, edited.stderr).toBe(0)
      expect(edited.stderr).toBe('hearth: src/cli/main.ts changed after the last build; building (npm run build)…\n')
      expect(edited.stdout).toContain(`${summary} (edited)`)

      // A file only the web app uses counts too: the prebuilt client must match its sources.
      touch('src/web/client/main.tsx')
      const web = hearthInCopy(['--help'])
      expect(web.stderr).toBe(
        'hearth: src/web/client/main.tsx changed after the last build; building (npm run build)…\n',
      )
      expect(hearthInCopy(['--help']).stderr).toBe('')
    },
    TIMEOUT,
  )

  it(
    'with HEARTH_SKIP_BUILD_CHECK=1 (as the test suite runs it) runs the build it has, stale or not',
    () => {
      touch('src/domain/ids.ts')
      const skipped = hearthInCopy(['--help'], { HEARTH_SKIP_BUILD_CHECK: '1' })
      expect(skipped.code, skipped.stderr).toBe(0)
      expect(skipped.stderr).toBe('')
      expect(hearthInCopy(['--help']).stderr).toContain('src/domain/ids.ts changed after the last build')
    },
    TIMEOUT,
  )

  it(
    '--help loads neither typebox nor the servers: commands load what they run when they run',
    () => {
      // A module hook that lists every module loaded, by URL, in a file.
      const loaded = path.join(project, 'loaded.txt')
      const hook = path.join(project, 'list-modules.mjs')
      writeFileSync(
        hook,
        `import { appendFileSync } from 'node:fs'
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  appendFileSync(${JSON.stringify(loaded)}, resolved.url + '\\n')
  return resolved
}`,
      )
      const register = path.join(project, 'register-hook.mjs')
      writeFileSync(register, `import { register } from 'node:module'\nregister(${JSON.stringify(`file://${hook}`)})\n`)
      const help = spawnSync(
        process.execPath,
        ['--import', `file://${register}`, path.join(project, 'bin', 'hearth.js'), '--help'],
        { cwd: project, env: { ...process.env, HEARTH_SKIP_BUILD_CHECK: '1' }, encoding: 'utf8', timeout: TIMEOUT },
      )
      expect(help.status, help.stderr).toBe(0)
      const modules = readFileSync(loaded, 'utf8')
      expect(modules).toContain('/build/src/cli/main.js')
      expect(modules).not.toContain('typebox')
      expect(modules).not.toMatch(/\/build\/src\/(config|serve|app|store\/db)\.js/)
    },
    TIMEOUT,
  )
})
