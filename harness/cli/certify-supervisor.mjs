// The supervisor of `toolreg certify`, forked by the command's launcher (certify-launcher.mjs). It
// forks its first child before anything else, so that the child's start-up runs beside the
// supervisor's (supervisor/early-child.mjs), then runs the command as toolreg.mjs runs the others.
import { discardEarly, forkEarly } from '../supervisor/early-child.mjs'
import { linkLauncher } from '../supervisor/launcher-link.mjs'
import { importable } from '../safe/compiled.mjs'

linkLauncher()
forkEarly()
const { main } = await import(await importable(new URL('./main.ts', import.meta.url)))
process.exitCode = await main(process.argv.slice(2))
discardEarly()
