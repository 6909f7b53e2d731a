/**
 * GRD-1 for the program itself: "Guards run after the waterfall's final allow and before dispatch;
 * any return other than `undefined` denies the call" — run_code's call too. A guard that denies
 * run_code stops the program: none of its calls runs. A registry that exempts its own code
 * transport ("each sub-call is guarded on its own") lets the program run.
 */
import fc from 'fast-check'
import { custom } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'

type Mode = 'code' | 'both'

export interface ProgramGuardedCase {
  /** The registry's mode, a registry each. */
  modes: Mode[]
}

const story = (c: ProgramGuardedCase): string[] => [
  `in a registry each, in ${c.modes.join(', then in ')} mode (with the code profile): tool sub, its body counting its runs`,
  'a guard that returns "no programs" for run_code (and nothing for other calls)',
  'a run_code call, by agent A, whose program calls sub: it is denied, and sub never runs',
]

export const programGuarded = custom(
  'GRD-1', 'a guard that denies run_code stops the program',
  fc.record({ modes: fc.shuffledSubarray<Mode>(['code', 'both'], { minLength: 1 }) }),
  story,
  async (ctx, c) => {
    if (!ctx.adapter.profiles.includes('code')) return
    for (const mode of c.modes) {
      const registry = await ctx.registry({ mode })
      if (!registry.codeProgram) return ctx.fail('the adapter declares the code profile but has no codeProgram')
      let runs = 0
      registry.register(liveTool('sub', { execute: async () => (runs++, { ok: true }) }))
      registry.guard((exec) => (exec.name === 'run_code' ? 'no programs' : undefined))
      const result = await registry.execute({
        callId: 'x-program',
        name: 'run_code',
        arguments: registry.codeProgram([{ name: 'sub', arguments: {} }]),
        signal: new AbortController().signal,
        agent: registry.agent('A'),
      })
      if (runs > 0 || !result.isError) return ctx.fail(`in ${mode} mode, a guard that denies run_code let the program ${runs > 0 ? 'run sub' : 'succeed'}`)
    }
  },
)
