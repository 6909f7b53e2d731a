/** Whether a value has the ToolDefinition shape (harness/contract/spec.ts); the first problem found, else undefined. */
export function toolShapeProblem(def: unknown): string | undefined {
  if (typeof def !== 'object' || def === null) return 'is not an object'
  const d = def as Record<string, unknown>
  if (typeof d.name !== 'string' || d.name === '') return '"name" must be a non-empty string'
  if (typeof d.description !== 'string') return '"description" must be a string'
  if (typeof d.parameters !== 'object' && typeof d.parameters !== 'boolean') return '"parameters" must be a JSON Schema'
  if (typeof d.execute !== 'function') return '"execute" must be a function'
  const output = d.output as Record<string, unknown> | undefined
  if (typeof output !== 'object' || output === null) return '"output" is mandatory'
  if (!('schema' in output)) return '"output.schema" is mandatory'
  if (typeof output.render !== 'function') return '"output.render" must be a function'
  if (output.presentationMeta !== undefined && typeof output.presentationMeta !== 'function') return '"output.presentationMeta" must be a function'
  const positiveFinite = typeof d.timeoutMs === 'number' && Number.isFinite(d.timeoutMs) && d.timeoutMs > 0
  if (d.timeoutMs !== undefined && !positiveFinite) return '"timeoutMs" must be a positive finite number'
  for (const key of ['isConcurrencySafe', 'presentCall', 'presentResult', 'finalizeContent']) {
    if (d[key] !== undefined && typeof d[key] !== 'function') return `"${key}" must be a function`
  }
  return undefined
}
