export declare function linkLauncher(): void
export declare function tellHeld(clauses: readonly string[]): void
