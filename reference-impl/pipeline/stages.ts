/**
 * The pipeline's stages as one replaceable table, in pipeline order. The registry runs whatever
 * table it is given: the reference passes `referenceStages`; a mutant swaps exactly one entry.
 */
import { materialize } from './1-materialize.js'
import { preExecute } from './2-pre-execute.js'
import { approve } from './3-approval.js'
import { runGuards } from './4-guards.js'
import { runExecute } from './5-execute.js'
import { thrownToResult, valueToResult } from './6-output.js'
import { postExecute } from './7-post-execute.js'
import { finalize } from './8-finalize.js'
import { notifyObservers, seal } from './9-publish.js'

export const referenceStages = {
  materialize,
  preExecute,
  approve,
  runGuards,
  runExecute,
  valueToResult,
  thrownToResult,
  postExecute,
  finalize,
  seal,
  notifyObservers,
}

export type Stages = typeof referenceStages
