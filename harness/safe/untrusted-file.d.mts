/** The file's text when it is a regular file of at most `maxBytes`; undefined otherwise (absent, a FIFO, a link, too big). */
export declare function readUntrusted(file: string, maxBytes: number): string | undefined
/** Writes `text` unless the file is something else than a regular file (a FIFO, a link); true when written. */
export declare function writeUntrusted(file: string, text: string): boolean
