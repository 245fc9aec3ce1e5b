#!/usr/bin/env node
// The `hearth` command. Hearth runs its TypeScript sources directly through tsx's loader.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/cli/main.ts')
process.exitCode = await main(process.argv.slice(2))
