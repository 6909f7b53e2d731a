// Entry point of a child that runs the implementation for `toolreg certify` (child.ts): the
// harness and adapters are TypeScript, loaded through tsx.
import { register } from 'tsx/esm/api'

register()
await import('./child.ts')
