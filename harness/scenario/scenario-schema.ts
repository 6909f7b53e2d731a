/**
 * The JSON Schema of a scenario: replay files are validated against it (ajv) so a bad file is
 * refused with the first invalid field named, before anything runs.
 */
const desc = { $ref: '#/$defs/value' }
const timing = { enum: ['sync', 'await'] }
const disposesSelf = { const: true }
const scope = { enum: ['A', 'B'] }
const decision = {
  type: 'object',
  required: ['kind'],
  properties: { kind: { enum: ['delegate', 'delegate-twice', 'delegate-again-later', 'throws-after-next', 'returns', 'throws', 'rejects'] }, value: desc },
  additionalProperties: false,
}
const projection = {
  type: 'object',
  required: ['kind'],
  properties: { kind: { enum: ['json-text', 'returns', 'throws'] }, value: desc, mutateAfter: { type: 'boolean' }, async: { const: true } },
  additionalProperties: false,
}
const attackValue = {
  type: 'object',
  properties: { ref: { enum: ['other-tool', 'other-agent', 'other-call-id', 'other-token', 'flip'] }, value: desc },
  additionalProperties: false,
}
const writes = {
  type: 'array',
  items: {
    type: 'object',
    required: ['op', 'path'],
    properties: { op: { enum: ['set', 'define', 'delete'] }, path: { type: 'string' }, to: attackValue },
    additionalProperties: false,
  },
}
const attack = { type: 'object', properties: { exec: writes, result: writes, decision: writes }, additionalProperties: false }

export const SCENARIO_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'toolreg scenario',
  type: 'object',
  required: ['version', 'config', 'tools', 'pre', 'guards', 'wrappers', 'post', 'observers', 'calls'],
  additionalProperties: false,
  properties: {
    version: { const: 1 },
    concurrent: { type: 'boolean' },
    hooksThrow: desc,
    overridesMore: { type: 'boolean' },
    toolDecisions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['tool', 'decision'],
        properties: { tool: { type: 'string' }, decision: desc },
        additionalProperties: false,
      },
    },
    config: {
      type: 'object',
      additionalProperties: false,
      properties: {
        mode: { enum: ['native', 'code', 'both'] },
        timeoutPolicy: { type: 'boolean' },
        approval: {
          type: 'object',
          required: ['kind'],
          properties: { kind: { enum: ['returns', 'throws', 'rejects', 'never'] }, timing, value: desc, later: { type: 'array', items: desc }, attack: writes },
          additionalProperties: false,
        },
      },
    },
    tools: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'description', 'parameters', 'outputSchema', 'classifier', 'body', 'render'],
        additionalProperties: false,
        properties: {
          name: { type: 'string' },
          scope,
          description: { type: 'string' },
          parameters: desc,
          outputSchema: desc,
          classifier: {
            type: 'object',
            required: ['kind'],
            properties: {
              kind: { enum: ['absent', 'returns', 'throws', 'not-a-function', 'getter-returns', 'has-key'] },
              value: desc,
              key: { type: 'string' },
              throwsWithout: { const: true },
            },
            additionalProperties: false,
          },
          body: {
            type: 'object',
            required: ['steps', 'outcome'],
            additionalProperties: false,
            properties: {
              steps: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['kind'],
                  properties: {
                    kind: { enum: ['await', 'defer', 'conclude', 'conclude-later', 'dispatch'] },
                    context: desc,
                    changeAfter: { const: true },
                    tool: { type: 'string' },
                    args: desc,
                    abortedSignal: { const: true },
                    agent: { enum: ['A', 'B', 'none'] },
                  },
                  additionalProperties: false,
                },
              },
              outcome: {
                type: 'object',
                required: ['kind'],
                properties: { kind: { enum: ['return', 'throw', 'reject', 'until-aborted'] }, value: desc, thrown: desc },
                additionalProperties: false,
              },
              plain: { const: true },
            },
          },
          render: projection,
          meta: projection,
          finalize: {
            type: 'object',
            required: ['kind'],
            properties: { kind: { enum: ['keep', 'returns', 'throws'] }, value: desc, async: { const: true } },
            additionalProperties: false,
          },
          timeoutMs: { type: 'number' },
          presentCall: { type: 'boolean' },
          define: { type: 'boolean' },
          attack: { type: 'object', properties: { body: writes, finalize: attack }, additionalProperties: false },
          extra: {
            type: 'array',
            items: {
              type: 'object',
              required: ['key', 'enumerable', 'value'],
              properties: { key: { type: 'string' }, symbol: { type: 'boolean' }, enumerable: { type: 'boolean' }, value: desc },
              additionalProperties: false,
            },
          },
        },
      },
    },
    pre: {
      type: 'array',
      items: {
        type: 'object',
        required: ['timing', 'decision'],
        properties: { scope, timing, decision, tamper: { type: 'boolean' }, attack, disposesSelf },
        additionalProperties: false,
      },
    },
    guards: {
      type: 'array',
      items: {
        type: 'object',
        required: ['verdict'],
        properties: {
          scope,
          verdict: {
            type: 'object',
            required: ['kind'],
            properties: { kind: { enum: ['pass', 'returns', 'throws'] }, value: desc },
            additionalProperties: false,
          },
          attack,
          disposesSelf,
        },
        additionalProperties: false,
      },
    },
    wrappers: {
      type: 'array',
      items: {
        type: 'object',
        required: ['timing', 'action'],
        properties: {
          scope,
          timing,
          action: {
            type: 'object',
            required: ['kind'],
            properties: {
              kind: {
                enum: [
                  'pass', 'next-twice', 'replace-signal', 'empty-override', 'made-up', 'unawaited-next', 'throws', 'rejects', 'throws-after-next',
                  'made-up-after-next',
                ],
              },
              result: desc,
              frozen: { const: true },
              signalKey: { const: true },
            },
            additionalProperties: false,
          },
          attack,
          disposesSelf,
        },
        additionalProperties: false,
      },
    },
    post: {
      type: 'array',
      items: { type: 'object', required: ['timing', 'decision'], properties: { scope, timing, decision, attack, disposesSelf }, additionalProperties: false },
    },
    observers: {
      type: 'array',
      items: {
        type: 'object',
        required: ['throws'],
        properties: { scope, throws: { type: 'boolean' }, disposesSelf, async: { const: true }, attack },
        additionalProperties: false,
      },
    },
    calls: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['tool', 'args'],
        additionalProperties: false,
        properties: {
          tool: { type: 'string' },
          args: desc,
          agent: scope,
          lookalikeAgent: { const: true },
          abortAtEntry: { type: 'boolean' },
          abortReason: desc,
          callerChangesArgs: { enum: ['live', 'shallow-frozen'] },
          abortScheduled: { type: 'boolean' },
          abortAsBodySettles: { type: 'boolean' },
          abortWhilePostRuns: { type: 'boolean' },
          fakeParent: { type: 'boolean' },
          callerToken: { const: true },
          malformed: { enum: ['not-an-object', 'no-signal', 'callId-not-a-string'] },
          reusesArgsObject: { const: true },
          sameCallIdAs: { type: 'integer', minimum: 0 },
          reusesInput: { const: true },
          spreadsOptions: { const: true },
          program: {
            type: 'array',
            items: { type: 'object', required: ['tool', 'args'], properties: { tool: { type: 'string' }, args: desc }, additionalProperties: false },
          },
        },
      },
    },
  },
  $defs: {
    /** Any JSON; an object with a `$` key must be a known tagged descriptor. */
    value: {
      if: { type: 'object', required: ['$'] },
      then: {
        type: 'object',
        properties: {
          $: {
            enum: [
              'bigint',
              'cycle',
              'function',
              'symbol',
              'undefined',
              'nan',
              'infinity',
              'negzero',
              'sparse',
              'map',
              'date',
              'instance',
              'boolean-object',
              'bare',
              'boxed',
              'promise',
              'throwing-getter',
              'getter',
              'shifting-getter',
              'proxy',
              'twice',
              'frozen',
              'error',
            ],
          },
        },
      },
    },
  },
} as const
