/**
 * The vocabulary the suites write properties in, gathered in one place: generators of tools, hooks,
 * values and scenarios, the scenario shapes, and the few readers a custom property needs. Beside
 * the property constructors of this folder it is the only harness code `suites/` imports
 * (tests/no-upward-imports.test.ts).
 */
export { resurrectingWrites } from '../arbitraries/attacks.js'
export {
  approval,
  approvalOutcome,
  boxedGrant,
  guard,
  madeUpNonLosslessMeta,
  malformedPre,
  observer,
  postListener,
  preDecision,
  preListener,
  timing,
  wellFormedPre,
  wrapper,
} from '../arbitraries/hooks.js'
export { nowAndThen, nowAndThenWith } from '../arbitraries/now-and-then.js'
export { builtInThrown, withBuiltInThrows, withOddThrows } from '../arbitraries/odd-throws.js'
export { argumentsObjectChanged, firstDisposingSelf, inFlightAtOnce } from '../arbitraries/shared-reaches.js'
export { withNestedCallLast } from '../arbitraries/nested-call-last.js'
export { SHARED_OUTPUTS, type SharedOutput } from '../arbitraries/shared-subtrees.js'
export { nearMiss, nearMisses, nearMissOf } from '../arbitraries/near-misses.js'
export { withPostForAgentB } from '../arbitraries/post-for-agent-b.js'
export { isRemote } from '../protocol/remote-marks.js'
export { lookalikeOf } from '../scenario/lookalike-agent.js'
export { ANY_SCHEMA, PARAMETER_SCHEMAS, invalidArguments, invalidOutput, validOutput, type OutputChoice } from '../arbitraries/outputs.js'
export { parameterCase } from '../arbitraries/parameter-cases.js'
export { argumentsWithProtoKey, callArguments, defaults, protoKeyedArguments, quiet, scenario } from '../arbitraries/scenario.js'
export { schemaArbitrary } from '../arbitraries/schema-arbitrary.js'
export {
  argumentClassifier,
  bodyStep,
  extraField,
  finalizer,
  mutatingRender,
  oddFinalizer,
  projection,
  SHADOWED,
  shadowedForA,
  smugglingFinalizer,
  succeedingTool,
  thrown,
  tool,
  toolName,
  toolOfItsOwn,
  withNested,
} from '../arbitraries/tools.js'
export { contentDesc, contextDesc, jsonValue, LOOKALIKE_LEAVES, poisoned, unserialisable } from '../arbitraries/values.js'
export { deepEqualJson } from '../oracle/json-equal.js'
export { isContent } from '../oracle/predict.js'
export { losslessText, publishedText, readOnce } from '../safe/safe-read.js'
export { times, valueWords } from '../safe/value-text.js'
export { isDeepFrozen, safeJson } from '../scenario/inspect.js'
export { runScenario } from '../scenario/interpret.js'
export { seamsOf } from '../seams.js'
export { scenarioStory } from '../scenario/story.js'
export type { Trace } from '../scenario/trace.js'
export type {
  AgentName,
  ApprovalSpec,
  BodyStep,
  CallSpec,
  ClassifierSpec,
  DecisionSpec,
  DispatchStep,
  ExtraField,
  FinalizeSpec,
  GuardSpec,
  PostSpec,
  PreSpec,
  ProjectionSpec,
  Scenario,
  Timing,
  ToolSpec,
  ValueDesc,
  WrapperSpec,
} from '../scenario/types.js'
export { buildValue, isLosslessDesc, jsonOf } from '../scenario/values.js'
export { isPlainDesc } from '../scenario/read-desc.js'
