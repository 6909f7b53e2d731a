/**
 * CTX-3: "a `run_code` outcome carries `concludesTurn` only when a sub-call's final outcome (after
 * post-execute) was a success carrying it". One program, or in half the cases two run at once: each
 * outcome is judged by its own sub-calls, so a conclusion kept anywhere but with the program that
 * made the sub-call shows.
 */
import fc from 'fast-check'
import { nowAndThenWith } from '../harness/property/vocabulary.js'
import { custom } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import type { JsonValue, ToolExecutionResult } from '../harness/contract/spec.js'

type SubCall = { concludes: boolean; fate: 'success' | 'blocked' | 'denied' | 'fails' }

const FATE: Record<SubCall['fate'], string> = {
  success: 'succeeds',
  blocked: 'is blocked by a post-execute listener',
  denied: 'is denied by a pre-execute listener',
  fails: 'throws',
}

const subCalls = fc.array(
  fc.record({ concludes: fc.boolean(), fate: fc.constantFrom<SubCall['fate']>('success', 'blocked', 'denied', 'fails') }),
  { minLength: 1, maxLength: 3 },
)

const concludes = (calls: SubCall[]) => calls.some((sub) => sub.concludes && sub.fate === 'success')

/** A second program that concludes the turn where the first does not, and the other way round: one of the two may. */
function unlike(first: SubCall[], drawn: SubCall[]): SubCall[] {
  if (concludes(first)) return drawn.map((sub) => ({ ...sub, concludes: false }))
  return drawn.map((sub, i) => (i === 0 ? { concludes: true, fate: 'success' } : sub))
}

/** The programs of a case: each a list of sub-calls; the second, where drawn, runs at once with the first. */
const programs: fc.Arbitrary<SubCall[][]> = subCalls
  .map((first) => [first])
  .chain(nowAndThenWith(subCalls, (drawn: SubCall[][], second: SubCall[]) => [...drawn, unlike(drawn[0]!, second)], 2))

/** The tool a program's sub-call calls: `sub_<i>` in the first program, `sub_<i>_of_<p>` in a later one. */
const subName = (program: number, i: number) => (program === 0 ? `sub_${i}` : `sub_${i}_of_${program}`)

const programsStory = (cases: SubCall[][]): string[] => [
  `code mode; ${cases.length === 1 ? 'a run_code program' : `${cases.length} run_code programs, run at once`}`,
  ...cases.flatMap((calls, p) => [
    `program ${p + 1} calls ${calls.map((_, i) => subName(p, i)).join(', then ')}`,
    ...calls.map((sub, i) => `${subName(p, i)}: its body ${sub.concludes ? 'concludes the turn' : 'does not conclude'}; the call ${FATE[sub.fate]}`),
  ]),
]

export const concludingPrograms = custom(
  'CTX-3', 'a run_code outcome carries concludesTurn only when a sub-call\'s final outcome was a success carrying it',
  programs,
  programsStory,
  async (ctx, cases) => {
    const registry = await ctx.registry({ mode: 'code' })
    if (!registry.codeProgram) return ctx.fail('the adapter declares the code profile but has no codeProgram')
    const subs = new Map<string, { program: number; sub: SubCall }>()
    cases.forEach((calls, program) => calls.forEach((sub, i) => {
      subs.set(subName(program, i), { program, sub })
      registry.register(liveTool(subName(program, i), {
        execute: (async (_args: JsonValue, exec: { concludeTurn(): void }) => {
          if (sub.concludes) exec.concludeTurn()
          if (sub.fate === 'fails') throw new Error('sub-call fails')
          return { i }
        }) as never,
      }))
    }))
    const fateOf = (name: string) => subs.get(name)?.sub.fate
    registry.onPreExecute(async (exec, next) => (fateOf(exec.name) === 'denied' ? { kind: 'deny', reason: 'no' } : next()))
    registry.onPostExecute(
      async (exec, _result, next) => (fateOf(exec.name) === 'blocked' ? { kind: 'block', feedback: [{ type: 'text', text: 'blocked' }] } : next()),
    )
    // Each sub-call's result once, however often observers are told of it (that count is RES-1's).
    const nested = cases.map(() => new Set<{ isError: boolean; concludesTurn?: unknown }>())
    registry.onResult((exec, result) => {
      const owner = subs.get(exec.name)
      if (exec.parent !== undefined && owner) nested[owner.program]!.add(result as never)
    })
    const run = (calls: SubCall[], p: number): Promise<ToolExecutionResult> => registry.execute({
      callId: `program_${p + 1}`,
      name: 'run_code',
      arguments: registry.codeProgram!(calls.map((_, i) => ({ name: subName(p, i), arguments: {} }))),
      signal: new AbortController().signal,
      agent: registry.agent('A'),
    })
    const outcomes = await Promise.all(cases.map(run))
    outcomes.forEach((outcome, p) => {
      const seen = nested[p]!
      const authoritative = [...seen].some((r) => !r.isError && r.concludesTurn === true)
      const concluded = (outcome as { concludesTurn?: unknown }).concludesTurn === true
      const which = cases.length === 1 ? 'run_code' : `program ${p + 1}'s run_code`
      if (seen.size !== cases[p]!.length) ctx.fail(`observers saw ${seen.size} sub-calls for ${cases[p]!.length} in program ${p + 1}`)
      if (concluded !== authoritative) ctx.fail(
        `${which} concludesTurn is ${concluded}, but its sub-calls' final outcomes ${authoritative ? 'do' : 'do not'} carry a conclusion`,
      )
    })
  },
  'code', 25,
)
