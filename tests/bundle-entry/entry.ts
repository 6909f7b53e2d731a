// A bundle entry of compiled-entry.test.ts's own: the test changes its dependency's mtime to see
// it rebuilt, which must not make the bundles other processes load stale mid-run.
import { dependencyUrl } from './dependency.js'

export const entryUrl = import.meta.url
export { dependencyUrl }
