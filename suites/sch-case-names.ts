/**
 * SCH-1 for names that differ only in case: "`schemas()` returns, per visible tool, an object".
 * Names are compared as strings (DEF-2's clash is the same name in the same layer), so `search`
 * and `Search` are two tools, both visible, both listed.
 */
import type { CustomContext } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { safeJson } from '../harness/property/vocabulary.js'

/** The name with its case changed: the first letter upper-cased, or the whole name where that changes nothing. */
export function otherCase(name: string): string {
  const first = name.charAt(0).toUpperCase() + name.slice(1)
  return first !== name ? first : name.toUpperCase()
}

export const caseNamesStory = (name: string): string =>
  `and in a registry of its own: tools ${name} and ${otherCase(name)} registered; schemas() lists each of them once`

export async function listedDespiteCase(ctx: CustomContext, name: string): Promise<void> {
  const other = otherCase(name)
  if (other === name) return
  const registry = await ctx.registry()
  registry.register(liveTool(name))
  try {
    registry.register(liveTool(other))
  } catch {
    // No clause makes a registry take a name that differs only in case: what it refused is not visible, nor listed.
    return
  }
  const names = registry.schemas().map((entry) => (entry as { name?: unknown }).name)
  for (const expected of [name, other]) {
    const times = names.filter((n) => n === expected).length
    if (times !== 1) ctx.fail(`with tools ${name} and ${other} registered, schemas() listed ${expected} ${times} times (names: ${safeJson(names)})`)
  }
}
