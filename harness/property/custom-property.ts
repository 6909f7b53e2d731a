/**
 * Properties that need more than one call through the routing model: registration checks, the
 * projection, batches, timeouts, Code Mode. Each gets a fresh registry per case and reports
 * violations of its own clause; an adapter that fails to build a registry is an adapter error.
 */
import type fc from 'fast-check'
import type { ConformanceAdapter, Profile, RegistryConfig, RegistryUnderTest } from '../contract/adapter.js'
import { clauseById } from '../contract/clauses.js'
import type { Violation } from '../oracle/judge.js'
import { describeThrown } from '../safe/safe-read.js'
import type { ToolExecutionInput } from '../contract/spec.js'
import type { CaseOutcome, ConformanceProperty } from './property.js'
import { HarnessError, ImplementationFault } from '../safe/safe-read.js'
import { afterOwnTime } from '../safe/own-time.mjs'
import { stageEntered } from '../scenario/stage-probe.js'

export interface CustomContext {
  readonly adapter: ConformanceAdapter
  readonly scheduler: fc.Scheduler
  /** A fresh registry; disposed after the case. */
  registry(config?: RegistryConfig): Promise<RegistryUnderTest>
  /** Records a violation of this property's clause. */
  fail(detail: string): void
}

class CreateFailed extends Error {}
class OverBudget extends Error {}

/** Custom checks may spend real time (timeouts, workers); past this much own time (a starved process is not hung) they count as hung. */
const CUSTOM_BUDGET_MS = 5000

async function withinBudget<T>(work: Promise<T>, ms: number): Promise<T> {
  let cancel: (() => void) | undefined
  try {
    return await Promise.race([work, new Promise<never>((_, reject) => (cancel = afterOwnTime(ms, () => reject(new OverBudget()))))])
  } finally {
    cancel?.()
  }
}

/** A detail past this many characters is cut: a check that quotes a value the registry published (a 10 MB meta) stays readable. */
const DETAIL_CHARS = 1500
const cut = (detail: string) => (detail.length > DETAIL_CHARS ? `${detail.slice(0, DETAIL_CHARS)}… (${detail.length} characters)` : detail)

/**
 * A property of its own check. `story` tells a case in words, a line each thing the case sets up
 * (for "what happened" when it fails): `valueWords` (safe/value-text.ts) shows a value inside a line.
 */
export function custom<Case>(
  id: string,
  rule: string,
  arbitrary: fc.Arbitrary<Case>,
  story: (testCase: Case) => string[],
  check: (ctx: CustomContext, testCase: Case) => Promise<void>,
  profile?: Profile,
  maxRuns?: number,
  budgetMs = CUSTOM_BUDGET_MS,
): ConformanceProperty<Case> {
  const clause = clauseById.get(id)
  if (!clause || clause.level === 'claim') throw new Error(`custom(): ${id} is not a certifiable clause`)
  return {
    id,
    level: clause.level,
    profile: profile ?? clause.profile,
    title: `${id} ${rule}`,
    arbitrary,
    story,
    ...(maxRuns ? { maxRuns } : {}),
    async run(adapter, testCase, scheduler): Promise<CaseOutcome> {
      const violations: Violation[] = []
      const made: RegistryUnderTest[] = []
      /** What the registry's own methods threw or rejected with: a throw the check let through is theirs. */
      const thrown = new Set<unknown>()
      const ctx: CustomContext = {
        adapter,
        scheduler,
        async registry(config = {}) {
          try {
            const registry = await adapter.create(config)
            made.push(registry)
            return tracking(registry, thrown, made.length - 1)
          } catch (error) {
            throw new CreateFailed(`create() threw: ${describeThrown(error)}`)
          }
        },
        fail: (detail) => violations.push({ clause: id, detail: cut(detail) }),
      }
      try {
        await withinBudget(check(ctx, testCase), budgetMs)
      } catch (error) {
        if (error instanceof OverBudget) {
          violations.push({ clause: id, detail: `the case ran past its ${budgetMs} ms budget (a hung call or body)` })
          return { violations }
        }
        if (error instanceof CreateFailed) return { violations, adapterError: error.message }
        if (error instanceof ImplementationFault) violations.push({ clause: error.clause ?? id, detail: error.detail })
        else if (thrown.has(error)) violations.push({
          clause: id,
          check: `${id}:implementation-threw`,
          detail: `the implementation threw: ${describeThrown(error)}`,
        })
        else if (isSerialisationError(error)) {
          // The harness's own values are lossless JSON by construction: a BigInt or a cycle met
          // while serialising came from the implementation (a suite that does not read it through safe-read).
          violations.push({
            clause: id,
            check: `${id}:not-lossless`,
            detail: `a value from the implementation is not lossless JSON (${describeThrown(error)})`,
          })
        }
        else throw new HarnessError(`the check of ${id} threw`, error)
      } finally {
        for (const registry of made) {
          try {
            await registry.dispose?.()
          } catch {
            // dispose failures do not change a verdict
          }
        }
      }
      return { violations }
    },
  }
}

function isSerialisationError(error: unknown): boolean {
  if (!(error instanceof TypeError)) return false
  const stack = typeof error.stack === 'string' ? error.stack : ''
  return /serialize a BigInt|circular structure to JSON/.test(error.message) && /at JSON\.stringify/.test(stack)
}

/**
 * The registry with every method call watched: what a method throws, or its promise rejects with,
 * is recorded in `thrown` and passed on unchanged (checks that expect a throw still see it). A
 * call of the projection (`schemas()`) enters the `projection` stage, so a hang, an escape or a
 * changed global while the registry builds its listing is attributed there.
 */
/** The registry method that builds what the model is shown (the `projection` seam). */
const PROJECTION = 'schemas' satisfies keyof RegistryUnderTest

function tracking(registry: RegistryUnderTest, thrown: Set<unknown>, index: number): RegistryUnderTest {
  const note = (error: unknown) => {
    thrown.add(error)
    return error
  }
  const wrappers = new Map<unknown, unknown>()
  const wrap = (key: string, member: unknown) => {
    if (typeof member !== 'function') return member
    let wrapper = wrappers.get(member)
    if (!wrapper) {
      wrapper = (...args: unknown[]) => {
        if (key === PROJECTION) stageEntered('projection', index, `${PROJECTION}()`)
        let out: unknown
        try {
          out = (member as (...a: unknown[]) => unknown).apply(registry, args)
        } catch (error) {
          throw note(error)
        }
        if (out instanceof Promise) return out.catch((error: unknown) => Promise.reject(note(error)))
        return out
      }
      wrappers.set(member, wrapper)
    }
    return wrapper
  }
  // A plain object of live getters, not a Proxy: a registry whose members are frozen data
  // properties (a protocol copy) would break a Proxy's invariants.
  const watched: Record<string, unknown> = {}
  for (let o: object | null = registry; o && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const key of Object.getOwnPropertyNames(o)) {
      if (key === 'constructor' || Object.prototype.hasOwnProperty.call(watched, key)) continue
      Object.defineProperty(watched, key, { enumerable: true, get: () => wrap(key, Reflect.get(registry, key)) })
    }
  }
  return watched as unknown as RegistryUnderTest
}

export function input(name: string, args: unknown = {}, extra: Partial<ToolExecutionInput> = {}): ToolExecutionInput {
  return { callId: `x-${name}`, name, arguments: args, signal: new AbortController().signal, ...extra }
}

export function codeOf(registry: RegistryUnderTest, result: unknown): string | undefined {
  try {
    if (registry.errorCode) return registry.errorCode(result as never)
    const code = (result as { error?: { code?: unknown } })?.error?.code
    return typeof code === 'string' ? code : undefined
  } catch {
    return undefined
  }
}
