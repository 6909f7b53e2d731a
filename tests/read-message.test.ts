// The supervisor reads what arrives on a child's IPC channel as data (issue 24): any JSON value the
// implementation may write there is either a message of a known shape or undefined, never a throw.
import { expect, test } from 'vitest'
import { readMessage } from '../harness/supervisor/read-message.js'

const verdict = { clause: 'PRE-1', level: 'R', profile: 'core', title: 'PRE-1 …', status: 'passed' }

test('values of no known shape are undefined: strings, null, arrays, unknown types, shapes with wrong fields', () => {
  const strays: unknown[] = [
    'ready', null, undefined, 0, true, [], ['beat'], {}, { type: 'ready' }, { type: 'beat' }, { type: 'beat', cases: '1' },
    { type: 'verdict', verdict: null }, { type: 'verdict', verdict: { ...verdict, status: 'green' } },
    { type: 'verdict', verdict: { ...verdict, ended: { exitCode: 'x' } } }, { type: 'escape', escape: { kind: 'boom', detail: '' } },
    { type: 'preflight', ok: 'yes' }, { type: 'started', clause: 7 }, { type: 'toString' }, { type: '__proto__' },
  ]
  for (const stray of strays) expect(readMessage(stray), JSON.stringify(stray)).toBeUndefined()
})

test('the messages a child sends are read as they are', () => {
  const messages: unknown[] = [
    { type: 'beat', cases: 3 }, { type: 'started', clause: 'PRE-1' }, { type: 'verdict', verdict },
    { type: 'verdict', verdict: { ...verdict, status: 'failed', stage: 'body#0 of c0', escape: 'process control', ended: { exitCode: 0 } } },
    { type: 'escape', escape: { kind: 'process.exit', detail: 'exit', at: { clause: 'PRE-1', title: 't' } } },
    { type: 'preflight', ok: true, seamErrors: [] }, { type: 'preflight', ok: false, error: 'create() threw' },
    { type: 'load-error', error: 'no module' },
    { type: 'ready', adapter: { name: 'a', profiles: ['core'] }, properties: [{ id: 'PRE-1', level: 'R', profile: 'core', title: 't', scenario: true }] },
  ]
  for (const message of messages) expect(readMessage(message)).toBe(message)
})
