// Checks never trip over what they check (issue 11, item 6): hostile values from the
// implementation — a cycle, a throwing getter, a BigInt, a Proxy that throws on every trap, a
// 50 MB string — end as the implementation's clause failure, never as a check that threw; a check
// that throws for a reason of its own is a harness error carrying its stack.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import reference from '../reference-impl/adapters/reference.js'
import { bitingProxy } from '../fixtures/hostile-values/support.js'
import { HOSTILE_VALUES } from '../fixtures/hostile-values/cases.js'
import { checkProperty, type PropertyVerdict } from '../harness/engine/check-property.js'
import { DEFAULT_RUNS } from '../harness/engine/resolve-run.js'
import { custom } from '../harness/property/custom-property.js'
import { describeThrown, losslessProblem, losslessText, readOnce, show } from '../harness/safe/safe-read.js'
import { PROPERTIES } from '../suites/index.js'

const property = (id: string) => PROPERTIES.find((p) => p.id === id)!
const summary = (v: PropertyVerdict) => (
  v.status === 'failed' ? `failed: ${v.failure.violations.map((x) => x.detail).join('; ')}` : v.status === 'error' ? `error: ${v.error}` : 'passed'
)

describe('the safe reader', () => {
  it('formats a cycle, a BigInt, a throwing getter and a biting Proxy without throwing, and caps size', () => {
    const loop: Record<string, unknown> = { n: 1n }
    loop.self = loop
    Object.defineProperty(loop, 'bad', { enumerable: true, get: () => { throw new Error('no') } })
    expect(show(loop)).toContain('[cycle]')
    expect(show(loop)).toContain('1n')
    expect(show(bitingProxy())).toContain('unreadable')
    expect(show({ big: 'x'.repeat(50 * 1024 * 1024) }).length).toBeLessThanOrEqual(400)
    expect(describeThrown(bitingProxy())).toContain('unreadable')
    expect(describeThrown(new Error('y'.repeat(10_000))).length).toBeLessThan(1000)
  })

  it('names what is not lossless JSON without running getters or traps', () => {
    let ran = 0
    const withGetter = Object.defineProperty({}, 'g', { enumerable: true, get: () => ++ran })
    expect(losslessProblem({ a: [1, { b: 2n }] })).toBe('$.a[1].b is a BigInt')
    expect(losslessProblem(withGetter)).toBe('$.g is a getter')
    expect(losslessProblem({ p: bitingProxy() })).toBe('$.p is a Proxy')
    expect(losslessProblem({ z: -0 })).toBe('$.z is -0')
    expect(losslessProblem({ ok: [1, 'two', null, { three: true }] })).toBeUndefined()
    expect(ran).toBe(0)
    expect(() => losslessText({ n: 1n }, 'SCH-2')).toThrow(/not lossless JSON/)
  })

  it('reads a value once: each getter runs once, what throws is named, cycles stay cycles', () => {
    let ran = 0
    const source: Record<string, unknown> = {}
    Object.defineProperty(source, 'g', { enumerable: true, get: () => ++ran })
    source.self = source
    source.p = bitingProxy()
    const problems: string[] = []
    const copy = readOnce(source, problems) as Record<string, unknown>
    expect(ran).toBe(1)
    expect(copy.g).toBe(1)
    expect(copy.self).toBe(copy)
    expect(problems.join('\n')).toMatch(/\$\.g is a getter/)
    expect(problems.join('\n')).toMatch(/keys of \$\.p threw/)
  })
})

describe.concurrent('hostile values end as the implementation\'s clause failure', () => {
  for (const [name, c] of Object.entries(HOSTILE_VALUES)) {
    it(`${name}: ${c.fails.join(', ')} fail${c.passes.length ? `, ${c.passes.join(', ')} pass` : ''}; no check throws`, async () => {
      for (const id of c.fails) {
        // At the default depth: META-2 meets a published success within it on every seed (its cases end in a denial or a made-up error too).
        const verdict = await checkProperty(property(id), c.adapter, { runs: DEFAULT_RUNS, seed: 1, shrink: false })
        expect(verdict.status, `${id}: ${summary(verdict)}`).toBe('failed')
        if (verdict.status !== 'failed') continue
        for (const v of verdict.failure.violations) {
          expect(v.clause).toBe(id)
          expect(v.detail).not.toMatch(/the (check|property|oracle) threw|serialize a BigInt/)
          expect(v.detail.length).toBeLessThan(2000)
        }
      }
      for (const id of c.passes) {
        const verdict = await checkProperty(property(id), c.adapter, { runs: 30, seed: 1, shrink: false })
        expect(summary(verdict), id).toBe('passed')
      }
    })
  }
})

describe('a check that throws', () => {
  const cases = fc.constant(null)
  const story = () => ['one registry']
  it('for a reason of its own is a harness error with its stack, never a verdict', async () => {
    const buggy = custom('SCH-3', 'a check with a bug of its own', cases, story, async () => {
      const nothing = undefined as unknown as { field: { x: number } }
      if (nothing.field.x > 0) throw new Error('unreachable')
    })
    const verdict = await checkProperty(buggy, reference, { runs: 3, seed: 1 })
    expect(verdict.status).toBe('error')
    if (verdict.status !== 'error') return
    expect(verdict.error).toMatch(/^harness error while checking SCH-3/)
    expect(verdict.error).toMatch(/\n\s+at /)
  })

  it('because the implementation threw through it is the clause\'s failure', async () => {
    const throwing = custom('SCH-3', 'a check the registry throws through', cases, story, async (ctx) => {
      const registry = await ctx.registry()
      await registry.execute(42 as never).then(() => registry.register(null as never))
    })
    const verdict = await checkProperty(throwing, reference, { runs: 3, seed: 1 })
    expect(summary(verdict)).toMatch(/^failed: the implementation threw/)
  })
})

describe('the JSON-safe copy', () => {
  it('keeps a key named __proto__ as a key', async () => {
    const { jsonSafe } = await import('../harness/safe/json-safe.js')
    const value = JSON.parse('{"path":[{"__proto__":null}]}') as unknown
    expect(JSON.stringify(jsonSafe(value))).toBe('{"path":[{"__proto__":null}]}')
  })
})

describe('a suite that serialises an implementation value itself', () => {
  it('reports a leaked BigInt as its clause\'s failure, not a harness error', async () => {
    const naive = custom('SCH-3', 'a check that stringifies what the registry returned', fc.constant(null), () => ['one registry'], async (ctx) => {
      const registry = await ctx.registry()
      const projection = [...registry.schemas(), { leaked: 1n }]
      if (JSON.stringify(projection) === '') ctx.fail('unreachable')
    })
    const verdict = await checkProperty(naive, reference, { runs: 2, seed: 1 })
    expect(summary(verdict)).toMatch(/^failed: a value from the implementation is not lossless JSON/)
  })
})
