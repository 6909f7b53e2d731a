#!/usr/bin/env node
// Entry point of the `toolreg` command. The harness runs as a bundle of its TypeScript
// (safe/compiled.mjs), else from source through tsx. `certify` forks its first child before
// anything else, so that the child's start-up runs beside the supervisor's
// (supervisor/early-child.mjs). What loads a user's TypeScript (an adapter, a tool module)
// registers tsx first (safe/typescript-loader.mjs).
import { discardEarly, forkEarly } from '../supervisor/early-child.mjs'
import { importable } from '../safe/compiled.mjs'

const [command, ...rest] = process.argv.slice(2)
if (command === 'certify' && !rest.some((arg) => arg === '--help' || arg === '-h')) forkEarly()
const { main } = await import(await importable(new URL('./main.ts', import.meta.url)))
process.exitCode = await main(process.argv.slice(2))
discardEarly()
