// alongside(): a fixed direct check runs after a scenario case that found nothing, and never takes its place.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ConformanceAdapter } from '../harness/contract/adapter.js'
import type { CaseOutcome, ConformanceProperty } from '../harness/property/property.js'
import { SCENARIO_PROPERTIES } from '../harness/property/scenario-property.js'
import { alongside } from '../suites/with-direct.js'

const found = (clause: string, detail: string): CaseOutcome => ({ violations: [{ clause, detail }] })

function fakes(scenarioFinds: boolean) {
  const ran: string[] = []
  const judged: ConformanceProperty<number> = {
    id: 'FIN-2', level: 'R', profile: 'core', title: 'FIN-2 judged', arbitrary: fc.nat(9),
    run: async (_adapter, n) => (ran.push(`scenario ${n}`), scenarioFinds ? found('FIN-2', 'the scenario') : { violations: [] }),
    story: (n) => [`scenario ${n}`],
  }
  const direct: ConformanceProperty<string> = {
    id: 'FIN-2', level: 'R', profile: 'core', title: 'FIN-2 direct', arbitrary: fc.constant('x'),
    run: async (_adapter, d) => (ran.push(`direct ${d}`), found('FIN-2', 'the direct check')),
    story: (d) => [`direct ${d}`],
  }
  return { ran, property: alongside(judged, direct, 'fixed'), judged }
}

const adapter = (seams?: string[]) =>
  ({ name: 'fake', profiles: ['core'], create: async () => ({}), ...(seams ? { seams } : {}) }) as never as ConformanceAdapter
const scheduler = undefined as never as fc.Scheduler

describe('alongside', () => {
  it('runs the fixed direct check after a scenario case that found nothing, with the case drawn as before', async () => {
    const { ran, property, judged } = fakes(false)
    const outcome = await property.run(adapter(), 3, scheduler)
    expect(ran).toEqual(['scenario 3', 'direct fixed'])
    expect(outcome.violations.map((v) => v.detail)).toEqual(['the direct check'])
    expect(property.arbitrary).toBe(judged.arbitrary)
    expect(SCENARIO_PROPERTIES.has(property as ConformanceProperty)).toBe(true)
    expect(property.story?.(3)).toEqual(['scenario 3', expect.any(String), 'direct fixed'])
  })

  it('keeps the scenario\'s finding and skips the direct check then', async () => {
    const { ran, property } = fakes(true)
    const outcome = await property.run(adapter(), 4, scheduler)
    expect(ran).toEqual(['scenario 4'])
    expect(outcome.violations.map((v) => v.detail)).toEqual(['the scenario'])
  })

  it('runs no direct check for an adapter that declares its seams', async () => {
    const { ran, property } = fakes(false)
    const outcome = await property.run(adapter(['pre-execute']), 5, scheduler)
    expect(ran).toEqual(['scenario 5'])
    expect(outcome.violations).toEqual([])
  })
})
