#!/usr/bin/env node
// Entry point of the `toolreg` command: TypeScript (the harness and adapters) loads through tsx.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('./main.ts')
process.exitCode = await main(process.argv.slice(2))
