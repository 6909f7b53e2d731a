// tsx, registered once per process: for the implementation's and the user's TypeScript (adapters,
// tool modules), and for the harness itself when it runs from source. Registering it twice would
// run every import through its hooks twice.
const REGISTERED = Symbol.for('toolreg.tsx-registered')

export async function ensureTypeScriptLoader() {
  if (globalThis[REGISTERED]) return
  const { register } = await import('tsx/esm/api')
  register()
  Object.defineProperty(globalThis, REGISTERED, { value: true })
}
