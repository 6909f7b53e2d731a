/** The reference registry: the executable form of harness/contract/SPEC.md. */
export { createRegistry, type RegistryOptions, type ToolRegistry } from './registry.js'
export { defineTool } from './define-tool.js'
export { codeProgram } from './code-mode/run-code.js'
export { timeoutPolicy } from './timeout-policy.js'
export { referenceStages, type Stages } from './pipeline/stages.js'
export { ToolTable, HookList } from './layers.js'
