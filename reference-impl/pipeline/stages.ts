/**
 * The pipeline's stages as one replaceable table, in pipeline order. The registry runs whatever
 * table it is given: the reference passes `referenceStages`; a mutant swaps exactly one entry.
 */
import { forwardsConclusion } from '../code-mode/run-code.js'
import { logDispatch } from '../code-mode/dispatch-log.js'
import { materialize, resolveTool } from './1-materialize.js'
import { preExecute } from './2-pre-execute.js'
import { approve } from './3-approval.js'
import { runGuards } from './4-guards.js'
import { acceptWrapperResult, fuseSignals, runExecute } from './5-execute.js'
import { thrownToResult, valueToResult } from './6-output.js'
import { postExecute } from './7-post-execute.js'
import { finalize } from './8-finalize.js'
import { notifyObservers, seal } from './9-publish.js'
import { attachContexts, cancelOutcome, isCancelled } from './outcome-rules.js'
import type { Stages } from './call-state.js'
import { runWaterfall } from './waterfall.js'

export const referenceStages: Stages = {
  resolveTool,
  materialize,
  waterfall: runWaterfall,
  preExecute,
  isCancelled,
  approve,
  runGuards,
  fuseSignals,
  runExecute,
  acceptWrapperResult,
  valueToResult,
  thrownToResult,
  cancelOutcome,
  attachContexts,
  postExecute,
  finalize,
  seal,
  notifyObservers,
  forwardsConclusion,
  logDispatch,
}

export type { Stages } from './call-state.js'
