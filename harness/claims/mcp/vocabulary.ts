/**
 * Strings worth passing to a server's tools: short words that collide (the same entity name
 * twice), paths inside the sandbox (existing files, an existing folder, names not yet taken), a
 * glob and data URLs. A plain string parameter draws from the short words a third of the time,
 * from the rest a third, and from any string the last third (mcp-arguments.ts); without
 * collisions a generated call rarely touches what an earlier one made.
 */
import { join } from 'node:path'
import { SEED_FILES } from './sandbox.js'

export const SHORT_WORDS: readonly string[] = ['a', 'b']
/** What a string of format `uri` draws from: URLs that need no network. */
export const DATA_URLS: readonly string[] = ['data:text/plain,a', 'data:text/plain,b']

export function vocabulary(sandbox: string): string[] {
  return [
    ...SHORT_WORDS,
    'hello',
    sandbox,
    ...Object.keys(SEED_FILES).map((name) => join(sandbox, name)),
    join(sandbox, 'sub'),
    join(sandbox, 'new.txt'),
    join(sandbox, 'new-folder'),
    '*.txt',
    ...DATA_URLS,
  ]
}
