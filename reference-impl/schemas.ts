/**
 * What the model sees. Honours SCH-1 (each entry's own keys are exactly name, description and
 * parameters, built from a whitelist), SCH-2 (parameters is a detached copy of the snapshot taken
 * at registration), SCH-3 (same registrations, same order, deep-equal output), CODE-3 (in code
 * mode the model-facing list holds only run_code; in both mode it holds both).
 */
import type { ToolSchema } from '../harness/contract/spec.js'
import type { RegisteredTool } from './definition.js'
import type { RegistryContext } from './pipeline/call-state.js'

export function project(tool: RegisteredTool): ToolSchema {
  return { name: tool.name, description: tool.description, parameters: structuredClone(tool.parameters) }
}

export function schemas(registry: RegistryContext, agent: unknown): ToolSchema[] {
  return registry.tools.visible(agent).map(project)
}

export function modelTools(registry: RegistryContext, agent: unknown): ToolSchema[] {
  const builtins = [...registry.builtins.values()].map(project)
  if (registry.mode === 'code') return builtins
  return [...schemas(registry, agent), ...builtins]
}
