// Entry point of a child that runs the implementation for `toolreg certify` (child.ts): a bundle
// of the harness (safe/compiled.mjs), else the TypeScript through tsx. The adapter is loaded
// through tsx either way (safe/load-adapter.ts registers it).
import { importable } from '../safe/compiled.mjs'
import { endOrphan, supervisorPid } from '../safe/process-tree.mjs'

// Before anything loads. This process's stdout is /dev/null and its stderr a pipe the supervisor
// drains: what the implementation logs is not judged, so a write that fails there (ENOBUFS on a
// flooded socket, EPIPE once the supervisor was killed) is no escape of a case and no crash before
// this process cleaned up. However it ends, a child whose supervisor is gone leaves nothing behind
// (child.ts handles the ways it sees coming).
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined)
process.on('exit', () => {
  if (process.ppid !== supervisorPid()) endOrphan(supervisorPid())
})

await import(await importable(new URL('./child.ts', import.meta.url)))
