/**
 * Waiting long enough to see a late effect, and no longer. Node lists the handles that can still
 * run code (timers, immediates, file requests…); once none is left beyond those that existed
 * before the call, nothing the body started can change observe() any more. Until then, wait up to
 * `windowMs`.
 */
import { setImmediate as nextMacrotask, setTimeout as sleep } from 'node:timers/promises'

const WATCHED = new Set(['Timeout', 'Immediate', 'FSReqCallback', 'FSReqPromise', 'FileHandleCloseReq', 'TCPWRAP', 'PipeWrap', 'ProcessWrap'])

export type ResourceCounts = Map<string, number>

export function activeResources(): ResourceCounts {
  const counts: ResourceCounts = new Map()
  for (const kind of process.getActiveResourcesInfo()) if (WATCHED.has(kind)) counts.set(kind, (counts.get(kind) ?? 0) + 1)
  return counts
}

export async function waitForQuiet(baseline: ResourceCounts, windowMs: number): Promise<void> {
  const deadline = performance.now() + windowMs
  await nextMacrotask()
  while (!quiet(baseline) && performance.now() < deadline) await sleep(2)
}

function quiet(baseline: ResourceCounts): boolean {
  return [...activeResources()].every(([kind, n]) => n <= (baseline.get(kind) ?? 0))
}
