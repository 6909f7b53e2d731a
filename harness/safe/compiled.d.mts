export declare function compiledEntry(entry: URL): Promise<string | undefined>
