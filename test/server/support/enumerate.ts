/**
 * Runs a roll procedure over every possible sequence of die results, each
 * with its exact probability, and gathers the answers' distribution: what the
 * rules give with real dice, for comparison with the odds engine.
 */
import { Rational } from '../../../src/core/rational.js';
import { defaultGreenOdds, defaultRedOdds, GREEN_SYMBOLS, RED_SYMBOLS } from '../../../src/odds/xwing-dice.js';
import type { DieKind, RolledDie } from '../../../src/server/rolls/dieKinds.js';
import { performRoll, type RollOutcome } from '../../../src/server/rolls/procedure.js';
import type { RollSpec } from '../../../src/server/rolls/request.js';

function faces(kind: DieKind): { symbol: string; value?: number; p: Rational }[] {
  if (kind === 'red') return RED_SYMBOLS.map((s) => ({ symbol: s, p: defaultRedOdds()[s] }));
  if (kind === 'green') return GREEN_SYMBOLS.map((s) => ({ symbol: s, p: defaultGreenOdds()[s] }));
  if (kind === 'd3') return [1, 2, 3].map((v) => ({ symbol: String(v), value: v, p: Rational.of(1, 3) }));
  return [1, 2, 3, 4, 5, 6].map((v) => ({ symbol: String(v), value: v, p: Rational.of(1, 6) }));
}

/** Probability of each key of the answers, over every sequence of dice. */
export async function enumerateRoll(spec: RollSpec, key: (o: RollOutcome) => string): Promise<Map<string, Rational>> {
  const out = new Map<string, Rational>();
  let prefix: number[] = [];
  for (;;) {
    const branches: number[] = [];
    let p = Rational.of(1, 1);
    let draw = 0;
    const outcome = await performRoll(spec, async (kinds) =>
      kinds.map((kind, i): RolledDie => {
        const options = faces(kind);
        const choice = prefix[draw] ?? 0;
        branches[draw] = options.length;
        draw++;
        const f = options[choice] as (typeof options)[number];
        p = p.mul(f.p);
        return { kind, symbol: f.symbol, ...(f.value !== undefined ? { value: f.value } : {}), channel: i, label: `die${i}` };
      }),
    );
    const k = key(outcome);
    out.set(k, (out.get(k) ?? Rational.of(0, 1)).add(p));
    // Next sequence: odometer over the draws this run made.
    const used = [...Array(draw).keys()].map((i) => prefix[i] ?? 0);
    let i = draw - 1;
    while (i >= 0 && (used[i] as number) + 1 >= (branches[i] as number)) i--;
    if (i < 0) return out;
    prefix = [...used.slice(0, i), (used[i] as number) + 1];
  }
}
