#!/usr/bin/env node
// `node harness/safe/run-compiled.mjs <file.ts> [args…]`: runs one of this package's TypeScript
// entry points (a protocol server, say) as a bundle (compiled.mjs), else through tsx. The script
// sees its own path and arguments in process.argv, as under `node --import tsx <file.ts>`.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { importable } from './compiled.mjs'

const file = process.argv[2]
if (file === undefined) {
  process.stderr.write('usage: run-compiled.mjs <file.ts> [args…]\n')
  process.exit(2)
}
process.argv.splice(1, 1)
await import(await importable(pathToFileURL(resolve(file))))
