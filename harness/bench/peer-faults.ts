/**
 * The peer matrix's known failures as subjects of runs-to-detection, beside the mutants: each
 * shipped peer adapter, with its baseline's clauses as the targets it must fail.
 */
import { fileURLToPath } from 'node:url'
import type { ConformanceAdapter } from '../contract/adapter.js'
import type { MutantModule } from '../mutation/kill.js'
import { readBaseline } from '../report/baseline.js'
import { PEERS } from '../../reference-impl/adapters/peers/index.js'

const ROOT = new URL('../../', import.meta.url)

export async function loadPeerFaults(): Promise<MutantModule[]> {
  return Promise.all(
    PEERS.map(async (peer) => {
      const module = (await import(new URL(peer.module, ROOT).href)) as { default: ConformanceAdapter }
      const targets = (await readBaseline(fileURLToPath(new URL(peer.baseline, ROOT)))).map((entry) => entry.clause)
      return { file: peer.module, name: `${peer.library}@${peer.version}`, adapter: module.default, targets }
    }),
  )
}
