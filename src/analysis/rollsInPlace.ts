/**
 * A die's rolls in the order it rolled them: each read roll's index, and `undefined` for each unresolved one, which
 * comes after `unresolvedAt[j]` read rolls (`DieRolls.unresolvedAt`). What replays them through a monitor keeps the
 * unresolved rolls in their places, as a session's monitor took them.
 */
export function* rollsInPlace(symbols: ArrayLike<number>, unresolvedAt: readonly number[] = []): Generator<number | undefined> {
  let j = 0;
  for (let i = 0; i <= symbols.length; i++) {
    for (; j < unresolvedAt.length && (unresolvedAt[j] as number) <= i; j++) yield undefined;
    if (i < symbols.length) yield symbols[i] as number;
  }
}
