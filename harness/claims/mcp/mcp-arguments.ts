/**
 * A tool's arguments, generated from its inputSchema the way check-tool generates a tool's
 * (harness/claims/arguments.ts: edges first, every value checked against the whole schema),
 * except that each plain string may also be a word of the vocabulary (vocabulary.ts), a string
 * of format `uri` is a data URL, and every property is generated (the sparsest edge still leaves
 * the optional ones out).
 */
import type { JsonValue } from '../../contract/spec.js'
import { argumentsFor, type ArgumentsGenerator } from '../arguments.js'
import { DATA_URLS, SHORT_WORDS } from './vocabulary.js'

const URL_FORMATS = new Set(['uri', 'url', 'uri-reference', 'iri'])

type Schema = { [k: string]: unknown }

/** `onlyWords`: every plain string is one of `words` (earlier calls, which should touch what the call under test touches). */
export function mcpArgumentsFor(tool: string, inputSchema: JsonValue, words: readonly string[], onlyWords = false): ArgumentsGenerator {
  const schema = withoutDialect(inputSchema)
  const generated = argumentsFor(tool, withVocabulary(schema, words, onlyWords, true))
  const edges = argumentsFor(tool, withVocabulary(schema, words, onlyWords, false)).edges
  const { isValid } = argumentsFor(tool, schema)
  return { ...generated, edges: edges.filter(isValid), isValid }
}

/** `$schema` names a dialect ajv may not hold (draft 2020-12); the keywords tools use read the same in draft 7. */
function withoutDialect(schema: JsonValue): JsonValue {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema
  const { $schema: _dialect, ...rest } = schema
  return rest
}

function withVocabulary(node: unknown, words: readonly string[], onlyWords: boolean, everyProperty: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => withVocabulary(n, words, onlyWords, everyProperty))
  if (typeof node !== 'object' || node === null) return node
  const s = node as Schema
  const out: Schema = {}
  const data = new Set(['enum', 'const', 'default', 'examples'])
  for (const [key, value] of Object.entries(s)) out[key] = data.has(key) ? value : withVocabulary(value, words, onlyWords, everyProperty)
  // Optional properties are generated too (the sparse edge leaves them out): a default is rarely what a case needs.
  if (everyProperty && typeof s.properties === 'object' && s.properties !== null) out.required = Object.keys(s.properties)
  const plainString = s.type === 'string' && !('enum' in s) && !('const' in s) && !('pattern' in s)
  if (!plainString) return out
  if (typeof s.format === 'string' && URL_FORMATS.has(s.format)) {
    const urls = [...new Set([...(onlyWords ? words.filter((w) => w.includes(':')) : []), ...DATA_URLS])]
    return { ...out, enum: urls }
  }
  const fits = (w: string) => w.length >= Number(s.minLength ?? 0) && w.length <= Number(s.maxLength ?? Infinity)
  const groups = [words.filter((w) => SHORT_WORDS.includes(w)), words.filter((w) => !SHORT_WORDS.includes(w))]
    .map((group) => group.filter(fits))
    .filter((group) => group.length > 0)
  if (onlyWords && words.some(fits)) return { ...out, enum: words.filter(fits) }
  return groups.length > 0 ? { anyOf: [...groups.map((group) => ({ enum: group })), out] } : out
}
