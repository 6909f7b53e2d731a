// tar-fs ships no types; the browser test's unpacker uses only extract().
declare module 'tar-fs' {
  import type { Writable } from 'node:stream'
  export function extract(directory: string): Writable
}
