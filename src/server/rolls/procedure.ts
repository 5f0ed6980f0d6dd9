/**
 * Carries out a checked roll request with real dice: asks the rig for the dice
 * the rules need (`roll`), applies rerolls (each die at most once, reading only
 * the dice rerolled), and computes the modified result and its one-line text.
 * The rig is injected, so the rules run the same on the rig and in tests.
 */
import type { DieKind, RolledDie } from './dieKinds.js';
import { describeT9a } from './describeSpec.js';
import { formatDice } from './diceText.js';
import type { RollSpec } from './request.js';
import { diceRolled, keptTotal, rerollWanted, type T9aRollRule } from './t9aRules.js';
import { attackModifier, cancel, defenseModifier, lockRerolls, modifyAttack, modifyDefense } from './xwingRules.js';

/**
 * Rolls these dice (one throw or several) and returns them read, in the order asked. `replaces`, for a reroll: the
 * place each new die takes among the dice asked before (so a live view shows it instead of the die it rerolls).
 */
export type RollDice = (kinds: readonly DieKind[], why: string, replaces?: readonly number[]) => Promise<RolledDie[]>;

/** One die of the answer. */
export interface AnswerDie extends RolledDie {
  /** Which part of the roll it belongs to: `attack`, `defense`, `dice`, `roll 2`... */
  readonly group: string;
  /** The symbol it showed before a reroll (absent when not rerolled). */
  readonly rerolledFrom?: string;
  /** The symbol after tokens (focus turned into a hit), when it changed. */
  readonly modified?: string;
  /** False for a die set aside: a Maximised Roll's discarded die, an excluded fumble direction. */
  readonly kept: boolean;
}

export interface RollOutcome {
  readonly dice: readonly AnswerDie[];
  /** The modified result, as numbers. */
  readonly result: Readonly<Record<string, number>>;
  /** The roll in one line of text, e.g. "3 red: hit, crit, focus -> 2 damage". */
  readonly line: string;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The dice a request needs on its first throw(s), by kind (for the queue's refusal check). */
export function diceNeeded(spec: RollSpec): Map<DieKind, number> {
  const need = new Map<DieKind, number>();
  const add = (k: DieKind, n: number): void => void need.set(k, (need.get(k) ?? 0) + n);
  if (spec.kind === 'dice') for (const g of spec.groups) add(g.kind, g.count);
  if (spec.kind === 'attack') {
    add('red', spec.attack.red);
    if ((spec.defense?.green ?? 0) > 0) add('green', spec.defense?.green ?? 0);
  }
  if (spec.kind === 't9a') {
    const rule = t9aRule(spec);
    add(spec.t9a.d3 ? 'd3' : 'd6', rule.rolls * rule.perRoll);
  }
  if (spec.kind === 'fumble') add('direction', 1);
  return need;
}

function t9aRule(spec: Extract<RollSpec, { kind: 't9a' }>): T9aRollRule & { readonly rolls: number; readonly perRoll: number } {
  const t = spec.t9a;
  const rule = { size: t.total ? t.dice : 1, maximised: t.maximised, minimised: t.minimised, d3: t.d3 };
  return { ...rule, rolls: t.total ? 1 : t.dice, perRoll: diceRolled(rule) };
}

/** Performs the roll. */
export async function performRoll(spec: RollSpec, roll: RollDice): Promise<RollOutcome> {
  switch (spec.kind) {
    case 'dice':
      return rollDice(spec, roll);
    case 'attack':
      return rollAttack(spec, roll);
    case 't9a':
      return rollT9a(spec, roll);
    case 'fumble':
      return rollFumble(spec, roll);
  }
}

async function rollDice(spec: Extract<RollSpec, { kind: 'dice' }>, roll: RollDice): Promise<RollOutcome> {
  const kinds = spec.groups.flatMap((g) => Array<DieKind>(g.count).fill(g.kind));
  const got = await roll(kinds, formatDice(spec.groups));
  const dice: AnswerDie[] = got.map((d) => ({ ...d, group: 'dice', kept: true }));
  const result: Record<string, number> = {};
  const parts: string[] = [];
  let from = 0;
  for (const g of spec.groups) {
    // A group's dice by position, not by kind: two groups of one kind must not each count all of them.
    const mine = dice.slice(from, (from += g.count));
    const faces = mine.map((d) => d.symbol).join(', ');
    const head = formatDice([g]);
    if (g.kind === 'red') {
      const { hits, crits } = modifyAttack(mine.map((d) => d.symbol), 'none');
      Object.assign(result, { hits, crits, damage: hits + crits });
      parts.push(`${head}: ${faces} -> ${hits + crits} damage`);
    } else if (g.kind === 'green') {
      const { evades } = modifyDefense(mine.map((d) => d.symbol), 'none');
      result.evades = evades;
      parts.push(`${head}: ${faces} -> ${plural(evades, 'evade')}`);
    } else if (g.kind === 'direction') {
      parts.push(`${head}: ${faces}`);
    } else {
      const total = mine.reduce((s, d) => s + (d.value ?? 0), 0);
      result[`${g.kind}Total`] = total;
      parts.push(mine.length > 1 ? `${head}: ${faces} -> ${total}` : `${head}: ${faces}`);
    }
  }
  return { dice, result, line: parts.join('; ') };
}

async function rollAttack(spec: Extract<RollSpec, { kind: 'attack' }>, roll: RollDice): Promise<RollOutcome> {
  const mod = attackModifier(spec.attack);
  const dmod = defenseModifier(spec.defense);
  const greens = spec.defense?.green ?? 0;
  const first = await roll([...Array<DieKind>(spec.attack.red).fill('red'), ...Array<DieKind>(greens).fill('green')], 'attack and defense');
  let red = first.filter((d) => d.kind === 'red');
  const green = first.filter((d) => d.kind === 'green');
  // Target lock: only the dice it rerolls are tumbled and read again, each once.
  const again = red.map((d, i) => ({ d, i })).filter(({ d }) => lockRerolls(d.symbol, mod));
  const from = new Map<number, string>();
  if (again.length > 0) {
    const rerolled = await roll(again.map(() => 'red'), 'target lock reroll', again.map((a) => a.i));
    red = red.map((d, i) => {
      const k = again.findIndex((a) => a.i === i);
      if (k < 0) return d;
      from.set(i, d.symbol);
      return rerolled[k] as RolledDie;
    });
  }
  const atk = modifyAttack(red.map((d) => d.symbol), mod);
  const def = modifyDefense(green.map((d) => d.symbol), dmod);
  const left = cancel(atk, def.evades);
  const dice: AnswerDie[] = [
    ...red.map((d, i): AnswerDie => {
      const was = from.get(i);
      const m = atk.modified[i];
      return { ...d, group: 'attack', kept: true, ...(was !== undefined ? { rerolledFrom: was } : {}), ...(m !== d.symbol && m !== undefined ? { modified: m } : {}) };
    }),
    ...green.map((d, i): AnswerDie => {
      const m = def.modified[i];
      return { ...d, group: 'defense', kept: true, ...(m !== d.symbol && m !== undefined ? { modified: m } : {}) };
    }),
  ];
  const show = (d: AnswerDie): string => `${d.rerolledFrom !== undefined ? `${d.rerolledFrom}->` : ''}${d.symbol}${d.modified !== undefined ? `->${d.modified}` : ''}`;
  const tokens = [spec.attack.focus ? 'focus' : '', spec.attack.lock ? 'lock' : '', spec.attack.force ? 'force' : ''].filter((t) => t !== '');
  const dtokens = [spec.defense?.focus ? 'focus' : '', spec.defense?.force ? 'force' : ''].filter((t) => t !== '');
  const head = `${spec.attack.red} red${tokens.length ? ` (${tokens.join(', ')})` : ''}${greens > 0 ? ` vs ${greens} green${dtokens.length ? ` (${dtokens.join(', ')})` : ''}` : ''}`;
  const redText = dice.filter((d) => d.group === 'attack').map(show).join(', ');
  const greenText = dice.filter((d) => d.group === 'defense').map(show).join(', ');
  const total = left.hits + left.crits;
  const tail =
    greens > 0
      ? `${plural(total, 'uncancelled result')} (${plural(left.hits, 'hit')}, ${plural(left.crits, 'crit')})`
      : `${total} damage (${plural(left.hits, 'hit')}, ${plural(left.crits, 'crit')})`;
  return {
    dice,
    result: { hits: atk.hits, crits: atk.crits, evades: def.evades, uncancelledHits: left.hits, uncancelledCrits: left.crits, damage: total },
    line: `${head}: ${redText}${greens > 0 ? ` | ${greenText}` : ''} -> ${tail}`,
  };
}

async function rollT9a(spec: Extract<RollSpec, { kind: 't9a' }>, roll: RollDice): Promise<RollOutcome> {
  const t = spec.t9a;
  const rule = t9aRule(spec);
  const kind: DieKind = t.d3 ? 'd3' : 'd6';
  const pipsOf = (d: RolledDie): number => Number(d.value);
  const flat = await roll(Array<DieKind>(rule.rolls * rule.perRoll).fill(kind), '9th Age roll');
  let rolls = Array.from({ length: rule.rolls }, (_, r) => flat.slice(r * rule.perRoll, (r + 1) * rule.perRoll));
  const totalOf = (ds: readonly RolledDie[]): number => (t.d3 ? ds.reduce((s, d) => s + Number(d.value), 0) : keptTotal(ds.map(pipsOf), rule).total);
  const firstTotals = rolls.map(totalOf);
  const again = firstTotals.map((v, i) => ({ v, i })).filter(({ v }) => rerollWanted(v, t.reroll, t.target));
  const rerolledFrom = new Map<number, number>();
  if (again.length > 0) {
    const places = again.flatMap((a) => Array.from({ length: rule.perRoll }, (_, j) => a.i * rule.perRoll + j));
    const fresh = await roll(Array<DieKind>(places.length).fill(kind), `reroll ${t.reroll}`, places);
    again.forEach((a, k) => {
      rerolledFrom.set(a.i, a.v);
      rolls[a.i] = fresh.slice(k * rule.perRoll, (k + 1) * rule.perRoll);
    });
    rolls = [...rolls];
  }
  const totals = rolls.map(totalOf);
  const dice: AnswerDie[] = rolls.flatMap((ds, r) => {
    const kept = t.d3 ? ds.map(() => true) : keptTotal(ds.map(pipsOf), rule).kept;
    const was = rerolledFrom.get(r);
    return ds.map((d, i): AnswerDie => ({ ...d, group: `roll ${r + 1}`, kept: kept[i] ?? true, ...(was !== undefined ? { rerolledFrom: String(was) } : {}) }));
  });
  const successes = t.target === undefined ? undefined : totals.filter((v) => v >= (t.target as number)).length;
  const head = describeT9a(t);
  const shown = totals.map((v, r) => `${rerolledFrom.has(r) ? `${rerolledFrom.get(r)}->` : ''}${v}`).join(', ');
  const result: Record<string, number> = { total: totals.reduce((s, v) => s + v, 0) };
  if (successes !== undefined) result.successes = successes;
  return { dice, result, line: `${head}: ${shown}${successes !== undefined ? ` -> ${plural(successes, 'success', 'successes')}` : ''}` };
}

/** Most direction rolls a fumble takes before giving up (each allowed direction has at least 1/6 a roll). */
export const MAX_FUMBLE_ROLLS = 30;

async function rollFumble(spec: Extract<RollSpec, { kind: 'fumble' }>, roll: RollDice): Promise<RollOutcome> {
  const dice: AnswerDie[] = [];
  for (let n = 1; n <= MAX_FUMBLE_ROLLS; n++) {
    const [d] = await roll(['direction'], n === 1 ? 'fumble direction' : 'fumble direction again (outside the play area)');
    const die = d as RolledDie;
    const outside = spec.exclude.includes(Number(die.value));
    dice.push({ ...die, group: `roll ${n}`, kept: !outside });
    if (!outside) {
      const seq = dice.map((x) => x.symbol).join(' -> ');
      const head = `fumble${spec.exclude.length ? ` (not ${spec.exclude.join(', ')})` : ''}`;
      return { dice, result: { direction: Number(die.value), rolls: n }, line: `${head}: ${seq} -> ball scatters to direction ${die.value}` };
    }
  }
  throw new Error(`the fumble roll found no allowed direction in ${MAX_FUMBLE_ROLLS} rolls`);
}
