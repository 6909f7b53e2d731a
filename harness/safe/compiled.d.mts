export declare function compiledEntry(entry: URL): Promise<string | undefined>
export declare function importable(url: URL, options?: { bundle?: boolean }): Promise<string>
export declare function isOwnSource(url: URL): boolean
export declare function manifestPath(name: string): string
