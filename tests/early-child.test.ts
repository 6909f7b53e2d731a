// The child `toolreg certify` forks before it has resolved the run (supervisor/early-child.mjs) is
// taken only when it was started as the pool would start it: with the default heap cap.
import { expect, it } from 'vitest'
import { EARLY_EXEC_ARGV } from '../harness/supervisor/early-child.mjs'
import { DEFAULT_MAX_OLD_SPACE_MB } from '../harness/engine/resolve-run.js'

it('the early child has the default heap cap of a child', () => {
  expect(EARLY_EXEC_ARGV).toEqual([`--max-old-space-size=${DEFAULT_MAX_OLD_SPACE_MB}`])
})
