/**
 * A stand-in for a value that a file's `beforeAll` makes and its tests use: it forwards every use to the value
 * once made, and throws a clear error when used before (at module level, or in a hook that runs earlier).
 *
 * Why a stand-in rather than a handle (`browser.current`) or a `let` each file assigns: the file's setup stays
 * one `const` line, and its tests read as if they held the value itself (`browser.newContext()`,
 * `contextWithStore(browser, …)`, `server.baseUrl`), as they did before the setup moved here. A Proxy rather
 * than copying fields in (as apiDatabase does): a Browser is a class instance whose methods live on its
 * prototype and use `this`, so they are forwarded bound to the real object.
 */
export function later<T extends object>(what: string): { value: T; set(value: T | undefined): void } {
  let actual: T | undefined
  const value = new Proxy({} as T, {
    get(_, property) {
      if (!actual) {
        // `await` and the test runner's printing probe these; answering keeps them from throwing.
        if (property === 'then' || typeof property === 'symbol') return undefined
        throw new Error(`${what} is used before its beforeAll made it: use it inside a test or a later hook`)
      }
      const field = Reflect.get(actual, property, actual)
      return typeof field === 'function' ? field.bind(actual) : field
    },
    has: (_, property) => !!actual && Reflect.has(actual, property),
  })
  return { value, set: (made) => (actual = made) }
}
