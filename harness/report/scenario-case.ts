/** Whether a saved case is a scenario (a story and a timeline apply) or a direct check's own JSON (`{ direct }`, with-direct.ts). */
export const isScenarioCaseOf = (scenarioClause: boolean, testCase: unknown): boolean =>
  scenarioClause && !(typeof testCase === 'object' && testCase !== null && 'direct' in testCase && !('version' in testCase))
