/**
 * Rebuilding objects whose class cannot cross: errors by their constructor's name, and
 * instances of other classes as objects of a stand-in class of the same name (so they are
 * still not plain objects on this side; an array of a class of its own, an array of a stand-in
 * Array subclass).
 */
const ERRORS: Record<string, ErrorConstructor> = {
  Error,
  TypeError,
  RangeError,
  SyntaxError,
  ReferenceError,
  EvalError,
  URIError,
}

export function errorFromParts(className: string, name: string, message: string, stack: string | undefined): Error {
  const error = className === 'DOMException' ? new DOMException(message, name) : new (ERRORS[className] ?? Error)(message)
  if (error.name !== name) Object.defineProperty(error, 'name', { value: name, writable: true, enumerable: false, configurable: true })
  if (stack !== undefined) Object.defineProperty(error, 'stack', { value: stack, writable: true, enumerable: false, configurable: true })
  return error
}

const standIns = new Map<string, object>()

/** The prototype of a stand-in class named `name` (one per name). */
export function prototypeFor(name: string): object {
  let proto = standIns.get(name)
  if (!proto) {
    const StandIn = { [name]: class {} }[name]!
    standIns.set(name, (proto = StandIn.prototype as object))
  }
  return proto
}

const arrayStandIns = new Map<string, object>()

/** The prototype of a stand-in Array subclass named `name` (one per name). */
export function arrayPrototypeFor(name: string): object {
  let proto = arrayStandIns.get(name)
  if (!proto) {
    const StandIn = { [name]: class extends Array {} }[name]!
    arrayStandIns.set(name, (proto = StandIn.prototype as object))
  }
  return proto
}
