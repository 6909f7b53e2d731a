// The package's public entries as a user's project meets them: declarations that need nothing else
// (harness/types/; `npm run typecheck` fails when the generated one is stale), and JavaScript
// entries that export what the TypeScript ones do.
import { describe, expect, it } from 'vitest'
import type * as ShippedVitest from '../harness/types/vitest.js'
import type { defineConformanceSuite as sourceSuite } from '../harness/vitest.js'

// `npm run typecheck` holds the hand-written vitest declarations equal to the source's, both ways.
type Shipped = typeof ShippedVitest.defineConformanceSuite
export const shippedTakesSource: Shipped = null as unknown as typeof sourceSuite
export const sourceTakesShipped: typeof sourceSuite = null as unknown as Shipped

describe('public entries', () => {
  it.each([
    ['../harness/index.mjs', '../harness/index.ts'],
    ['../harness/vitest.mjs', '../harness/vitest.ts'],
  ])('%s exports the values %s exports', async (javascript, typescript) => {
    const names = async (path: string) => Object.keys(await import(/* @vite-ignore */ path)).sort()
    expect(await names(javascript)).toEqual(await names(typescript))
  })
})
