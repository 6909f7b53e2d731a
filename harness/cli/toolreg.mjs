#!/usr/bin/env node
// Entry point of the `toolreg` command. The harness runs as a bundle of its TypeScript
// (safe/compiled.mjs), else from source through tsx. `certify` runs in a process of its own, the
// supervisor, that this one starts and watches (certify-launcher.mjs). What loads a user's
// TypeScript (an adapter, a tool module) registers tsx first (safe/typescript-loader.mjs).
const argv = process.argv.slice(2)
const [command, ...rest] = argv
if (command === 'certify' && !rest.some((arg) => arg === '--help' || arg === '-h')) {
  ;(await import('./certify-launcher.mjs')).launchCertify(argv)
} else {
  const { importable } = await import('../safe/compiled.mjs')
  const { main } = await import(await importable(new URL('./main.ts', import.meta.url)))
  process.exitCode = await main(argv)
}
