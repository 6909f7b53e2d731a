// The supervisor's side of the channel to the launcher of `toolreg certify`
// (cli/certify-launcher.mjs): it tells the launcher which clauses the children hold, so that the
// launcher can name them if this process is killed past every handler (SIGKILL); and a launcher
// gone (killed itself) stops this run as SIGTERM would. Plain JavaScript, shared by the entry
// (cli/certify-supervisor.mjs) and the bundle of the harness.

let linked = false

/** Links this process to the launcher that forked it; the channel never keeps the process alive. */
export function linkLauncher() {
  if (!process.channel) return
  linked = true
  process.channel.unref()
  process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'))
}

/** Tells the launcher the clauses the children hold now (nothing when no launcher started this process). */
export function tellHeld(clauses) {
  if (linked && process.connected) process.send({ type: 'toolreg-held', clauses }, () => {})
}
