// A case that blocked the event loop joins the regression corpus, so the next run tries it first.
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadCorpus } from '../harness/runner/corpus.js'
import { blockedVerdict } from '../harness/runner/watchdog-verdicts.js'
import { PROPERTIES } from '../suites/index.js'

describe('blocked cases in the corpus', () => {
  it('OUT-1 a blocked case is failed with its counterexample and kept in the corpus, once', async () => {
    const property = PROPERTIES.find((p) => p.id === 'OUT-1')!
    const root = await mkdtemp(join(tmpdir(), 'toolreg-blocked-'))
    const testCase = { version: 1, config: {}, tools: [], pre: [], guards: [], wrappers: [], post: [], observers: [], calls: [] }
    const record = { clause: 'OUT-1', title: property.title, case: JSON.stringify(testCase), blockedMs: 10_000, stage: 'body#0 of c0' }
    for (let run = 0; run < 2; run++) {
      const verdict = await blockedVerdict(record, property, 'hostile', 1, join(root, 'ce'), join(root, 'corpus'))
      expect(verdict.status).toBe('failed')
      expect(verdict.counterexample).toBeDefined()
    }
    expect(await loadCorpus(join(root, 'corpus'), 'OUT-1')).toEqual([{ testCase, schedule: [] }])
  })
})
