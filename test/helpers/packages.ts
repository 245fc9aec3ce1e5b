// The repository's npm packages (packages/*) as a partner gets them: `npm pack` (which builds them,
// prepack) into a temporary directory, and the tarball installed into a scratch project in the OS's
// temporary directory, from npm's cache (no registry is asked when the cache has everything).
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)

const ROOT_DIR = fileURLToPath(new URL('../..', import.meta.url))

export interface ScratchProject {
  dir: string
  /** Runs a program of the root's node_modules/.bin (esbuild, tsc…) or node in the project. */
  exec(file: string, args: string[], env?: Record<string, string>): Promise<{ stdout: string; stderr: string }>
  remove(): Promise<void>
}

/** Packs packages/<name> into `destination` (its prepack builds it) and answers the tarball's path. */
export async function packPackage(name: string, destination: string): Promise<string> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: path.join(ROOT_DIR, 'packages', name),
    maxBuffer: 16 * 1024 * 1024,
  })
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[]
  if (!packed) throw new Error(`npm pack of packages/${name} answered no tarball`)
  return path.join(destination, packed.filename)
}

/** The paths inside a tarball (package/… stripped). */
export async function tarballFiles(tarball: string): Promise<string[]> {
  const { stdout } = await run('tar', ['-tzf', tarball])
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/^package\//, ''))
    .sort()
}

/**
 * A new project in the OS's temporary directory with `packages` installed (tarball paths or
 * name@version), from npm's cache: offline first, and from the registry only for what the cache lacks.
 */
export async function scratchProject(packages: string[]): Promise<ScratchProject> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hearth-scratch-'))
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }))
  const install = (mode: string) => run('npm', ['install', mode, '--no-audit', '--no-fund', ...packages], { cwd: dir })
  try {
    await install('--offline')
  } catch {
    await install('--prefer-offline')
  }
  const bin = path.join(ROOT_DIR, 'node_modules', '.bin')
  return {
    dir,
    exec: async (file, args, env = {}) => {
      try {
        return await run(file === 'node' ? process.execPath : path.join(bin, file), args, {
          cwd: dir,
          env: { ...process.env, ...env },
          maxBuffer: 16 * 1024 * 1024,
        })
      } catch (error) {
        // What the program said, not only that it failed.
        const { stdout, stderr } = error as { stdout?: string; stderr?: string }
        throw new Error(`${file} ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`, { cause: error })
      }
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  }
}
