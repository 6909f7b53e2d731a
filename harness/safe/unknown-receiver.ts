/**
 * The `this` a function is called with when the call crossed the protocol. A call message names
 * the function and its arguments, never the receiver (a registry in another language has no such
 * thing to send), so a function that reads `this` sees this marker, and a check of its receiver
 * (OUT-2: `output.render(args, value)` is a method call) knows it cannot judge one.
 */
export const UNKNOWN_RECEIVER: object = Object.freeze({ receiver: 'unknown: the call crossed the protocol' })
