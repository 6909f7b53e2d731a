// A case that blocked the event loop joins the regression corpus, so the next run tries it first.
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadCorpus } from '../harness/store/corpus.js'
import { blockedVerdict } from '../harness/engine/death-verdicts.js'
import { propertyInfo } from '../harness/engine/judge-clause.js'
import { persistVerdict } from '../harness/engine/persist-verdict.js'
import { PROPERTIES } from '../suites/index.js'

describe('blocked cases in the corpus', () => {
  it('OUT-1 a blocked case is failed with its counterexample and kept in the corpus, once', async () => {
    const property = propertyInfo(PROPERTIES.find((p) => p.id === 'OUT-1')!)
    const root = await mkdtemp(join(tmpdir(), 'toolreg-blocked-'))
    const testCase = { version: 1, config: {}, tools: [], pre: [], guards: [], wrappers: [], post: [], observers: [], calls: [] }
    const blocked = { clause: 'OUT-1', title: property.title, case: JSON.stringify(testCase), blockedMs: 10_000, stage: 'body#0 of c0' }
    const death = { ended: { exitCode: null, signal: 'SIGKILL', killed: 'blocked' as const }, silentMs: 10_000, blocked }
    for (let run = 0; run < 2; run++) {
      const verdict = await persistVerdict(blockedVerdict(property, death, { adapter: 'hostile', seed: 1, maxOldSpaceMb: 1024 }), {
        counterexampleDir: join(root, 'ce'),
        corpusDir: join(root, 'corpus'),
      })
      expect(verdict.status).toBe('failed')
      expect(verdict.stage).toBe('body#0 of c0')
      expect(verdict.counterexampleFile).toBeDefined()
    }
    expect(await loadCorpus(join(root, 'corpus'), 'OUT-1')).toEqual([{ testCase, schedule: [] }])
  })
})
