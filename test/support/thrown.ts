/** The error of type `type` that `fn` throws; any other error is rethrown, and no error fails the test. */
export function thrown<E extends Error>(fn: () => unknown, type: abstract new (...args: never[]) => E): E {
  try {
    fn();
  } catch (e) {
    if (e instanceof type) return e;
    throw e;
  }
  throw new Error(`expected ${type.name} to be thrown`);
}
