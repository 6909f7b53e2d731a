/**
 * Where registrations live. Tools sit in a global layer or an agent's layer; an agent's tool
 * shadows a same-named global tool for that agent alone (SCP-1). A second registration of a name
 * in the same layer throws and leaves the first in place (DEF-2). Hooks (listeners, guards,
 * wrappers, observers) are kept in registration order with their scope (PRE-7, SCP-2).
 */
import type { RegisteredTool } from './definition.js'

/** Absent `agent` means global. Agent keys are compared by identity. */
export type Scope = { agent?: unknown } | undefined

const GLOBAL: unique symbol = Symbol('global')
const scopeKey = (scope: Scope): unknown => (scope?.agent === undefined ? GLOBAL : scope.agent)

export class ToolTable {
  private readonly layers = new Map<unknown, Map<string, RegisteredTool>>()

  add(tool: RegisteredTool, scope: Scope): () => void {
    const key = scopeKey(scope)
    let layer = this.layers.get(key)
    if (!layer) this.layers.set(key, (layer = new Map()))
    if (layer.has(tool.name)) {
      throw new TypeError(`Tool "${tool.name}": field "name" is already registered in this layer`)
    }
    layer.set(tool.name, tool)
    return () => {
      if (layer.get(tool.name) === tool) layer.delete(tool.name)
    }
  }

  /** The tool a caller with this agent sees under `name`, if any. */
  lookup(name: string, agent: unknown): RegisteredTool | undefined {
    if (agent !== undefined) {
      const own = this.layers.get(agent)?.get(name)
      if (own) return own
    }
    return this.layers.get(GLOBAL)?.get(name)
  }

  /** Every tool visible to `agent`, globals first in registration order with shadows in place. */
  visible(agent: unknown): RegisteredTool[] {
    const own = agent === undefined ? undefined : this.layers.get(agent)
    const globals = [...(this.layers.get(GLOBAL)?.values() ?? [])].map((tool) => own?.get(tool.name) ?? tool)
    const ownOnly = own ? [...own.values()].filter((tool) => !this.layers.get(GLOBAL)?.has(tool.name)) : []
    return [...globals, ...ownOnly]
  }
}

interface HookEntry<T> {
  readonly hook: T
  readonly key: unknown
}

export class HookList<T> {
  private entries: readonly HookEntry<T>[] = []

  add(hook: T, scope: Scope): () => void {
    if (typeof hook !== 'function') throw new TypeError('A listener, guard, wrapper or observer must be a function')
    const entry: HookEntry<T> = { hook, key: scopeKey(scope) }
    this.entries = [...this.entries, entry]
    return () => {
      this.entries = this.entries.filter((e) => e !== entry)
    }
  }

  /** The hooks a call by `agent` passes through, in registration order: a snapshot. */
  forCall(agent: unknown): T[] {
    const out: T[] = []
    for (const entry of this.entries) {
      if (entry.key === GLOBAL || (agent !== undefined && entry.key === agent)) out.push(entry.hook)
    }
    return out
  }
}
