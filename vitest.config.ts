import os from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll gives up after 1 s by default: too short for a page's first load in Chromium while
    // the other worker runs a heavy file (a browser test failed so in CI). A poll still ends as soon
    // as it is met; only a failing one waits longer.
    expect: { poll: { timeout: 10_000 } },
    // Each file gets its own databases, so files run in parallel safely. Vitest's default (cores - 1)
    // is one worker on a 2-core machine, which leaves a core idle while a file waits on a child
    // process, a socket or a timer: at least two.
    fileParallelism: true,
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // A worker imports the app, PGlite and Fastify once and runs its files one after another, instead
    // of a new process importing them again for each file (about 30% of the CPU of integration files).
    // Safe because no test mocks modules, stubs globals or changes process.env, and every file closes
    // what it opened.
    isolate: false,
  },
})
