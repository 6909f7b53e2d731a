/**
 * The batch driver. Honours MODE-3: an exclusive call is a barrier (its body overlaps no other);
 * consecutive parallel calls run in a pool of at most `maxParallel`; results come back in call
 * order; once the batch's signal aborts no further call starts, and each unstarted call gets an
 * ABORTED_BEFORE_DISPATCH result without entering the pipeline.
 */
import type { ToolExecutionInput, ToolExecutionMode, ToolExecutionResult } from '../harness/contract/spec.js'
import { deepFreeze } from './json/lossless.js'
import { abortedBeforeDispatch } from './outcomes.js'

export interface BatchDriver {
  executionMode(input: ToolExecutionInput): ToolExecutionMode
  execute(input: ToolExecutionInput): Promise<ToolExecutionResult>
}

export async function runBatch(
  driver: BatchDriver,
  inputs: readonly ToolExecutionInput[],
  opts: { maxParallel: number; signal?: AbortSignal },
): Promise<ToolExecutionResult[]> {
  const bound = Number.isInteger(opts.maxParallel) && opts.maxParallel > 0 ? opts.maxParallel : 1
  const results: ToolExecutionResult[] = new Array(inputs.length)
  const running = new Set<Promise<void>>()
  const stopped = () => opts.signal?.aborted === true
  const start = (index: number) => {
    const task = driver.execute(inputs[index]!).then((result) => {
      results[index] = result
      running.delete(task)
    })
    running.add(task)
  }
  for (let index = 0; index < inputs.length; index++) {
    const input = inputs[index]!
    const exclusive = driver.executionMode(input).kind !== 'parallel'
    while (running.size > 0 && (exclusive || running.size >= bound)) await Promise.race(running)
    if (stopped()) {
      results[index] = deepFreeze(abortedBeforeDispatch())
      continue
    }
    start(index)
    if (exclusive) await Promise.all(running)
  }
  await Promise.all(running)
  return results
}
