#!/usr/bin/env node
// Entry point of the `toolreg` command: TypeScript (the harness and adapters) loads through tsx.
// `certify` forks its first child before anything else, so that the child's start-up runs beside
// the supervisor's own (supervisor/early-child.mjs).
import { discardEarly, forkEarly } from '../supervisor/early-child.mjs'
import { register } from 'tsx/esm/api'

const [command, ...rest] = process.argv.slice(2)
if (command === 'certify' && !rest.some((arg) => arg === '--help' || arg === '-h')) forkEarly()
register()
const { main } = await import('./main.ts')
process.exitCode = await main(process.argv.slice(2))
discardEarly()
