/**
 * Stage 4: monotonic guards. Honours GRD-1 (after the final allow, before dispatch; any return
 * other than undefined denies), GRD-2 (nothing runs after a guard denial can undo it: the guards
 * are the last gate), GRD-3 (a throwing guard denies), SCP-2 (scoped guards, chosen at entry).
 */
import { denied } from '../outcomes.js'
import { swallowIfThenable } from './abort.js'
import { PASS, stop, type CallState, type Gate } from './call-state.js'

export function runGuards(call: CallState): Gate {
  for (const guard of call.guards) {
    let verdict: unknown
    try {
      verdict = guard(call.exec)
    } catch {
      return stop(denied('A guard failed, so the call is denied.'), false)
    }
    if (verdict !== undefined) {
      swallowIfThenable(verdict)
      return stop(denied(typeof verdict === 'string' ? verdict : 'Denied by a guard.'), true)
    }
  }
  return PASS
}
