export declare const DECLARATIONS: string
export declare function publicDeclarations(): string
