/**
 * The simulated dice of a session, loaded or fair, and how the simulated
 * camera comes to show exactly what they rolled.
 *
 * The simulated camera draws each die's face itself, uniformly over the die's
 * physical faces, and has no way to be told a face. So
 * the dice choose among the camera's throws: a planned throw (planning costs
 * no rendering) is kept with probability Π_c w_c(face_c) / max w_c, where
 * w_c(x) = q_c(x) / p_c(x) is die c's wanted odds over the camera's odds, and
 * re-planned otherwise. This is rejection sampling: the kept throws show each
 * die's faces with exactly the odds q_c, independently across dice and
 * throws, and the camera renders and the vision pipeline reads the faces the
 * dice rolled. With one die loaded 1.5× on one face, two plans in three are kept.
 * A cocked die's face is not shown, so it weighs the average weight, 1 / max w_c,
 * which leaves the cocked rate as configured.
 */
import type { SimDieKind, SimDieTruth, ThrowTruth } from '../camera/sim/simulatedCamera.js';
import { isD6Faced, symbolProbabilities } from '../dice/indexing.js';
import type { DieType } from '../dice/types.js';
import { ConfigError } from '../core/errors.js';
import type { RandomSource } from '../stats/random.js';
import { oddsOnBiasedRig } from '../stats/rigBias.js';

/** One die made to favour one symbol: `symbol` (a D6's pip count, a D3's result, an X-Wing icon) comes up `factor` times as often as it should, on each face that shows it. */
export interface DieLoad {
  readonly symbol: string;
  readonly factor: number;
}

export interface SimulatedDie {
  readonly type: DieType;
  readonly load?: DieLoad;
}

/** A rig that favours `symbol` on every die (each face showing it alike): `excess` more often than a die with the type's odds would show it. */
export interface RigBias {
  readonly symbol: string;
  readonly excess: number;
}

/**
 * What is wrong with biasing a rig that rolls `type` by `bias`, by the key under `camera.rigBias` it concerns;
 * undefined when nothing. The config check and `oddsOnRig` both ask it.
 */
export function rigBiasProblem(type: DieType, bias: RigBias): { readonly key: 'symbol' | 'excess'; readonly problem: string } | undefined {
  const i = type.symbols.indexOf(bias.symbol);
  if (i < 0) return { key: 'symbol', problem: `"${bias.symbol}" is not shown on a ${type.id} die (it shows ${type.symbols.join(', ')})` };
  const p = symbolProbabilities(type)[i] as number;
  if (!(bias.excess > -p && bias.excess < 1 - p)) return { key: 'excess', problem: `${bias.excess} would not keep the share of "${bias.symbol}" between 0 and 1 (a ${type.id} die shows it ${p.toFixed(3)})` };
  return undefined;
}

/**
 * A die's odds (keyed as `cameraOdds`) on a biased rig: its own odds (loaded or not) times the rig's weights (the
 * two-way model of die and rig), the faces showing `bias.symbol` weighted alike.
 */
export function oddsOnRig(type: DieType, own: ReadonlyMap<string, number>, bias: RigBias): Map<string, number> {
  const bad = rigBiasProblem(type, bias);
  if (bad !== undefined) throw new ConfigError(`camera.rigBias.${bad.key}`, bad.problem);
  const nominal = dieOdds(type);
  const keys = [...nominal.keys()];
  const symbolOf = symbolOfKey(type);
  const favoured = keys.flatMap((key, i) => (symbolOf(key) === bias.symbol ? [i] : []));
  const odds = oddsOnBiasedRig(
    keys.map((k) => own.get(k) as number),
    favoured,
    bias.excess,
    keys.map((k) => nominal.get(k) as number),
  );
  return new Map(keys.map((k, i) => [k, odds[i] as number]));
}

/** Which look the simulated camera gives a die of this type. */
export function simDieKind(type: DieType): SimDieKind {
  if (type.id === 'red' || type.id === 'green') return type.id;
  if (isD6Faced(type)) return 'd6';
  throw new ConfigError('dice', `the simulated camera cannot draw a "${type.id}" die; it draws D6-faced dice (d6, d3, direction) and X-Wing red and green dice`);
}

/**
 * What the camera shows of a die (a face id for D6-faced dice, an icon for X-Wing dice) and its odds under the camera's
 * own draw: uniform over the faces it draws (six pip faces; an X-Wing die's eight, grouped by icon).
 */
export function cameraOdds(type: DieType): Map<string, number> {
  if (simDieKind(type) === 'd6') return new Map(type.faces.map((f) => [f.id, 1 / 6]));
  const p = symbolProbabilities(type);
  return new Map(type.symbols.map((s, i) => [s, p[i] as number]));
}

/**
 * A die's own odds, keyed as `cameraOdds`: its type's (a D6-faced die of your own may claim other odds than the
 * camera's 1/6 a face, and the simulated die rolls true to its claim).
 */
export function dieOdds(type: DieType): Map<string, number> {
  if (simDieKind(type) === 'd6') return new Map(type.faces.map((f, i) => [f.id, type.faceProbabilities[i] as number]));
  return cameraOdds(type);
}

/** The symbol each of `cameraOdds`'s keys shows: a D6-faced die's face shows its symbol (a D3's face 5 shows 3), an X-Wing icon is its symbol. */
function symbolOfKey(type: DieType): (key: string) => string {
  const byFace = new Map(type.faces.map((f) => [f.id, f.symbol]));
  return simDieKind(type) === 'd6' ? (key) => byFace.get(key) ?? key : (key) => key;
}

/**
 * What is wrong with loading `type` with `load`, by the key under `simulatedLoad` it concerns; undefined when nothing.
 * The config check and `loadedOdds` both ask it, so a load refused at run time was refused when the config was read.
 */
export function loadProblem(type: DieType, load: DieLoad): { readonly key: 'symbol' | 'factor'; readonly problem: string } | undefined {
  const i = type.symbols.indexOf(load.symbol);
  if (i < 0) return { key: 'symbol', problem: `"${load.symbol}" is not a symbol of a ${type.id} die (${type.symbols.join(', ')})` };
  const p = symbolProbabilities(type)[i] as number;
  if (!(p * load.factor < 1)) return { key: 'factor', problem: `${load.factor} × ${Number(p.toPrecision(4))} (the odds of "${load.symbol}") is not a probability below 1` };
  return undefined;
}

/**
 * A die's odds (`cameraOdds`) with the symbol `load.symbol` `factor` times as likely, the others scaled down in
 * proportion. A symbol shown by several faces (a D3's 3 on faces 5 and 6) is loaded on each of them alike.
 */
export function loadedOdds(type: DieType, load: DieLoad): Map<string, number> {
  const bad = loadProblem(type, load);
  if (bad !== undefined) throw new ConfigError(`simulatedLoad.${bad.key}`, bad.problem);
  const odds = dieOdds(type);
  const symbolOf = symbolOfKey(type);
  let p = 0;
  for (const [key, q] of odds) if (symbolOf(key) === load.symbol) p += q;
  const rest = (1 - p * load.factor) / (1 - p);
  return new Map([...odds].map(([key, q]) => [key, symbolOf(key) === load.symbol ? q * load.factor : q * rest]));
}

interface Weights {
  readonly weight: ReadonlyMap<string, number>;
  readonly max: number;
}

export class SimulatedDice {
  private readonly weights: Weights[];
  /** Throws planned and thrown away so far (for the curious: about max w − 1 per kept throw). */
  rejected = 0;

  constructor(
    readonly dice: readonly SimulatedDie[],
    private readonly random: RandomSource,
    private readonly rigBias?: RigBias,
    /**
     * The face the camera sees. `bottom`: the face the camera draws is the one lying on the platform, and the die
     * rolled its opposite (D6-faced dice only: an X-Wing icon's opposite need not be one icon).
     */
    readonly seen: 'top' | 'bottom' = 'top',
  ) {
    if (seen === 'bottom') {
      const d8 = dice.find((d) => simDieKind(d.type) !== 'd6');
      if (d8) throw new ConfigError('camera.face', `the simulated camera shows a ${d8.type.id} die only from above; from below it draws D6-faced dice (d6, d3, direction)`);
    }
    this.weights = dice.map((_, channel) => {
      const odds = cameraOdds((dice[channel] as SimulatedDie).type);
      const wanted = this.odds(channel);
      const weight = new Map([...odds].map(([s, p]) => [s, (wanted.get(s) as number) / p]));
      return { weight, max: Math.max(...weight.values()) };
    });
  }

  /** The camera kinds, channel by channel, to build the camera with. */
  kinds(): SimDieKind[] {
    return this.dice.map((d) => simDieKind(d.type));
  }

  /** The odds each die rolls with (face or symbol as the camera shows it): its own, loaded or not, on the rig. */
  odds(channel: number): Map<string, number> {
    const d = this.dice[channel];
    if (d === undefined) throw new RangeError(`there is no simulated die in channel ${channel}`);
    const odds = dieOdds(d.type);
    const own = d.load ? loadedOdds(d.type, d.load) : odds;
    return this.rigBias ? oddsOnRig(d.type, own, this.rigBias) : own;
  }

  /** Whether to keep a planned throw (see the module comment). */
  keeps(truth: ThrowTruth): boolean {
    let ratio = 1;
    for (const die of truth.dice) {
      const w = this.weights[die.channel];
      if (w === undefined) continue;
      const weight = die.cocked ? 1 : (w.weight.get(this.rolled(die)) ?? 1);
      ratio *= weight / w.max;
    }
    return this.random() < ratio;
  }

  /** The face die `die` rolled: the one the camera drew, or from below its opposite. */
  private rolled(die: SimDieTruth): string {
    if (this.seen === 'top') return die.face;
    const type = (this.dice[die.channel] as SimulatedDie).type;
    return type.opposite[die.face] ?? die.face;
  }

  /** A die seen from below as the dice rolled it: its top face (the drawn face's arrow is not the top's: dropped). */
  private fromBelow(die: SimDieTruth): SimDieTruth {
    if (die.cocked) return die;
    const { arrowDeg: _drawn, ...rest } = die;
    return { ...rest, face: this.rolled(die) };
  }

  /** Plans throws with `plan` until one is kept; its truth names the faces the dice rolled (on top). */
  choose<T extends { readonly truth: ThrowTruth }>(plan: () => T): T {
    for (let attempt = 0; attempt < 100_000; attempt++) {
      const t = plan();
      if (this.keeps(t.truth)) return this.seen === 'top' ? t : { ...t, truth: { ...t.truth, dice: t.truth.dice.map((d) => this.fromBelow(d)) } };
      this.rejected++;
    }
    throw new RangeError('the simulated dice rejected 100,000 planned throws in a row; their loads are too extreme to simulate this way');
  }
}
