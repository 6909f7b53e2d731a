/**
 * EXE-1 within one registry: one wrapper function registered twice, another between them, and the
 * later registration disposed. Registration order decides the nesting, so what is left nests as
 * it was registered: a registry that finds "the" registration by its function removes the earlier
 * one, and the survivor moves inside the wrapper registered between them.
 */
import fc from 'fast-check'
import { custom, input, type CustomContext } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import type { ExecuteWrapper } from '../harness/contract/adapter.js'

export interface TwiceCase {
  /** Wrappers registered between the two registrations of `audit`. */
  between: number
  /** The second registration is agent A's (with the scopes profile); calls are made for A and for no agent. */
  scoped: boolean
}

const names = (n: number) => Array.from({ length: n }, (_, i) => `inner${i}`)

const twiceRegisteredCase: fc.Arbitrary<TwiceCase> = fc.record({ between: fc.integer({ min: 1, max: 2 }), scoped: fc.boolean() })

const story = (c: TwiceCase): string[] => [
  `tool target; wrapper audit registered, then ${names(c.between).join(', ')}, then audit again${c.scoped ? ' for agent A (with the scopes profile)' : ''}`,
  'target called (for A with the scopes profile); the second registration of audit disposed; target called again (for A, then for no agent)',
  'each call enters audit before the wrappers registered after it (or, where one function counts once, not at all after the disposal)',
]

/** The wrappers each call entered, in order, as the names they log: before the disposal, and after it. */
async function entered(ctx: CustomContext, c: TwiceCase): Promise<{ before: string[]; after: string[][] }> {
  const registry = await ctx.registry()
  const scoped = c.scoped && ctx.adapter.profiles.includes('scopes')
  const log: string[] = []
  registry.register(liveTool('target', { execute: async () => (log.push('body'), { ok: true }) }))
  const audit: ExecuteWrapper = (_exec, next) => (log.push('audit'), next())
  registry.onExecute(audit)
  for (const name of names(c.between)) registry.onExecute((_exec, next) => (log.push(name), next()))
  const again = registry.onExecute(audit, scoped ? { agent: registry.agent('A') } : undefined)
  const call = async (agent: string | undefined, n: number): Promise<string[]> => {
    log.length = 0
    await registry.execute(input('target', {}, { callId: `x-target-${agent ?? 'none'}-${n}`, ...(agent ? { agent: registry.agent(agent) } : {}) }))
    return [...log]
  }
  const before = await call(scoped ? 'A' : undefined, 1)
  again()
  const after: string[][] = []
  for (const agent of scoped ? ['A', undefined] : [undefined]) after.push(await call(agent, 2))
  return { before, after }
}

export const disposedSecondRegistration = custom(
  'EXE-1', 'disposing the later of two registrations of one wrapper function leaves the earlier one where it was registered',
  twiceRegisteredCase,
  story,
  async (ctx, c) => {
    const inner = names(c.between)
    const nesting = (run: string[]) => run.join(' > ')
    const { before, after } = await entered(ctx, c)
    const registered = [['audit', ...inner, 'audit', 'body'], ['audit', ...inner, 'body']].map(nesting)
    if (!registered.includes(nesting(before))) return ctx.fail(`with audit registered twice, a call nested ${nesting(before)}`)
    const left = [['audit', ...inner, 'body'], [...inner, 'body']].map(nesting)
    const moved = after.find((run) => !left.includes(nesting(run)))
    if (moved) ctx.fail(`after the second registration of audit was disposed, a call nested ${nesting(moved)}`)
  },
)
