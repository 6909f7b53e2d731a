export declare function ensureTypeScriptLoader(): Promise<void>
