/**
 * Scenarios hold only what the adapter's profiles declare (core always on), fresh or replayed from
 * the corpus, and corpus cases are cut to the adapter's seams like fresh ones (issue 22, point 3).
 */
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ConformanceAdapter, Profile, RegistryUnderTest } from '../harness/contract/adapter.js'
import { checkProperty, type Failure } from '../harness/engine/check-property.js'
import { arbitraryFor } from '../harness/engine/fit-cases.js'
import { fitScenario, fitToProfiles } from '../harness/fit-scenario.js'
import { SEAMS } from '../harness/seams.js'
import type { Scenario, ToolSpec } from '../harness/scenario/types.js'
import { addToCorpus, loadCorpus } from '../harness/store/corpus.js'
import { PROPERTIES } from '../suites/index.js'
import reference from '../reference-impl/adapters/reference.js'
import coreOnlyFinTwice from '../fixtures/mutants/core-only-fin-twice.js'
import { toolregInProcess } from './in-process-cli.js'

const property = (id: string) => PROPERTIES.find((p) => p.id === id)!
const tool = (name: string, more: Partial<ToolSpec> = {}): ToolSpec => ({
  name, description: 'd', parameters: { type: 'object' }, outputSchema: {}, classifier: { kind: 'absent' },
  body: { steps: [], outcome: { kind: 'return', value: 1 } }, render: { kind: 'json-text' }, ...more,
})
const base: Scenario = { version: 1, config: {}, tools: [], pre: [], guards: [], wrappers: [], post: [], observers: [], calls: [] }
const only = (...profiles: Profile[]) => new Set<Profile>(['core', ...profiles])

describe('scenarios fitted to the profiles', () => {
  const steps: ToolSpec['body']['steps'] = [{ kind: 'await' }, { kind: 'dispatch', tool: 'leaf', args: {} }]
  const nested: ToolSpec = tool('outer', { body: { steps, outcome: { kind: 'return', value: 1 } } })
  const full: Scenario = {
    ...base,
    config: { mode: 'code', timeoutPolicy: true },
    tools: [tool('leaf', { define: true, timeoutMs: 5 }), tool('leaf', { scope: 'A' }), nested, tool('mine', { scope: 'B' })],
    pre: [{ scope: 'A', timing: 'sync', decision: { kind: 'delegate' } }, { timing: 'sync', decision: { kind: 'delegate' } }],
    guards: [{ scope: 'B', verdict: { kind: 'pass' } }],
    wrappers: [{ scope: 'A', timing: 'sync', action: { kind: 'pass' } }, { timing: 'await', action: { kind: 'pass' } }],
    post: [{ scope: 'A', timing: 'sync', decision: { kind: 'delegate' } }],
    observers: [{ scope: 'A', throws: true }, { throws: false }],
    toolDecisions: [{ tool: 'mine', decision: { kind: 'allow' } }, { tool: 'leaf', decision: { kind: 'ask' } }],
    calls: [
      { tool: 'run_code', args: {}, program: [{ tool: 'leaf', args: {} }] },
      { tool: 'leaf', args: {}, agent: 'A', fakeParent: true },
      { tool: 'leaf', args: {}, sameCallIdAs: 1 },
      { tool: 'leaf', args: {}, sameCallIdAs: 0 },
    ],
  }

  it('without scopes: scoped hooks become global; a scoped tool too, unless its name is taken; calls keep their agent', () => {
    const fitted = fitToProfiles(full, only('code', 'timeout', 'define'))
    expect(fitted.tools.map((t) => [t.name, t.scope])).toEqual([['leaf', undefined], ['outer', undefined], ['mine', undefined]])
    expect(fitted.tools[0]!.define).toBe(true)
    const hooks = [fitted.pre, fitted.guards, fitted.wrappers, fitted.post, fitted.observers]
    expect(hooks.map((list) => list.length)).toEqual([2, 1, 2, 1, 2])
    expect(hooks.flat().filter((hook) => 'scope' in hook)).toEqual([])
    expect(fitted.toolDecisions).toEqual(full.toolDecisions)
    expect(fitted.calls[1]!.agent).toBe('A')
    const twice = fitToProfiles({ ...base, tools: [tool('t', { scope: 'A' }), tool('t', { scope: 'B', description: 'B' })] }, only())
    expect(twice.tools).toEqual([tool('t')])
  })

  it('without code: native mode, no program calls (sameCallIdAs renumbered), no fake parents, no nested dispatch', () => {
    const fitted = fitToProfiles(full, only('scopes', 'timeout', 'define'))
    expect(fitted.config).toEqual({ timeoutPolicy: true })
    expect(fitted.calls).toEqual([{ tool: 'leaf', args: {}, agent: 'A' }, { tool: 'leaf', args: {}, sameCallIdAs: 0 }, { tool: 'leaf', args: {} }])
    expect(fitted.tools[2]!.body.steps).toEqual([{ kind: 'await' }])
    expect(fitToProfiles({ ...full, config: { mode: 'native' } }, only()).config).toEqual({ mode: 'native' })
  })

  it('without timeout or define: no timeout policy (a declared timeoutMs stays), raw definitions', () => {
    const fitted = fitToProfiles(full, only('scopes', 'code'))
    expect(fitted.config).toEqual({ mode: 'code' })
    expect(fitted.tools[0]).not.toHaveProperty('define')
    expect(fitted.tools[0]!.timeoutMs).toBe(5)
  })

  it('every profile and no seam declaration: the very same cases, generated and fitted', () => {
    expect(fitScenario(full, reference)).toBe(full)
    for (const p of PROPERTIES) expect(arbitraryFor(p, reference)).toBe(p.arbitrary)
    expect(fitScenario(full, { profiles: reference.profiles, seams: [...SEAMS] })).toEqual(full)
  })
})

describe('a core-only adapter (no scopes)', () => {
  it('FIN-2 the core-only mutant fails on its own fault (finalizeContent run twice), and RES-1, RES-4, MODE-2 pass', async () => {
    const verdict = await checkProperty(property('FIN-2'), coreOnlyFinTwice, { runs: 100, seed: 20261130, shrink: false })
    expect(verdict.status).toBe('failed')
    // The counterexample shows the fault itself: a call whose finalizer ran twice, not a scoped tool made global.
    const { violations, trace } = (verdict as { failure: Failure }).failure
    const call = violations[0]!.call
    const finalized = trace!.events.filter((e) => e.ev === 'enter' && e.stage === 'finalize' && e.call === call)
    expect(finalized).toHaveLength(2)
    for (const id of ['RES-1', 'RES-4', 'MODE-2']) {
      expect((await checkProperty(property(id), coreOnlyFinTwice, { runs: 60, seed: 20261130, shrink: false })).status, id).toBe('passed')
    }
  })
})

/** A corpus folder holding `cases` for `clause`, saved as certify saves counterexamples. */
async function corpusOf(clause: string, cases: unknown[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'toolreg-fit-corpus-'))
  for (const [seed, testCase] of cases.entries()) {
    const saved = { clause, property: clause, adapter: 'reference', seed, path: '', case: testCase, schedule: [], violations: [] }
    await addToCorpus(dir, { toolreg: 'counterexample', version: 1, ...saved })
  }
  return dir
}

/** The reference declaring every seam but guards and post-execute, whose registry has neither method. */
const fewerSeams: ConformanceAdapter = {
  ...reference,
  name: 'no-guards-no-post',
  seams: SEAMS.filter((s) => !['guards', 'post-execute', 'tool-decisions', 'tool-asks'].includes(s)),
  async create(config) {
    const { guard: _guard, onPostExecute: _post, ...rest } = await reference.create(config)
    return rest as RegistryUnderTest
  },
}

describe('corpus cases are fitted like fresh ones', () => {
  const saved: Scenario = {
    ...base,
    tools: [tool('read_file')],
    guards: [{ verdict: { kind: 'pass' } }],
    post: [{ timing: 'sync', decision: { kind: 'delegate' } }],
    observers: [{ throws: false }, { scope: 'A', throws: false }],
    calls: [{ tool: 'read_file', args: {}, agent: 'B' }],
  }
  const notAScenario = { direct: { n: 1 } }
  const noLongerValid = { ...base, tools: [{ name: 7 }] }

  it('RES-1 a case with hooks the adapter cannot install is cut to its seams; a non-scenario or invalid case is skipped', async () => {
    const examples = await loadCorpus(await corpusOf('RES-1', [saved, notAScenario, noLongerValid]), 'RES-1')
    expect(examples).toHaveLength(3)
    const seen: unknown[] = []
    const verdict = await checkProperty(property('RES-1'), fewerSeams, {
      runs: 3, seed: 1, examples, supervise: (testCase, run) => (seen.push(testCase), run()),
    })
    expect(verdict.status).toBe('passed')
    expect(seen[0]).toEqual({ ...saved, guards: [], post: [] })
    expect(seen.filter((c) => c === notAScenario || (c as Scenario).guards?.length)).toEqual([])
  })

  it('RES-1 certify of a core-only adapter passes on a corpus holding a scoped observer', async () => {
    const dir = await corpusOf('RES-1', [{ ...saved, guards: [], post: [] }])
    const json = join(dir, 'report.json')
    const args = ['--clause', 'RES-1', '--runs', '2', '--seed', '1', '--corpus', dir, '--json', json]
    const run = await toolregInProcess('certify', '--adapter', 'fixtures/variants/core-only.ts', ...args)
    expect(run.exitCode).toBe(0)
    const report = JSON.parse(await readFile(json, 'utf8')) as { clauses: { id: string; status: string }[] }
    expect(report.clauses.find((c) => c.id === 'RES-1')?.status).toBe('passed')
  })
})
