export declare function compiledEntry(entry: URL): Promise<string | undefined>
export declare function isOwnSource(url: URL): boolean
