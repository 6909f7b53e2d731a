// The file compiled-entry.test.ts touches: a bundle that includes it must be rebuilt.
export const dependencyUrl = import.meta.url
