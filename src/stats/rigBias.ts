/**
 * A rig that favours a face (or the faces showing one symbol): the odds a die shows on that rig. The rig's
 * effect multiplies the die's own odds face by face (the two-way model of die
 * and rig the rig-effect tests assume), scaled so that a die with the
 * `nominal` odds (default: uniform) shows the favoured face `excess` more
 * often than expected.
 */
import { InputError } from '../core/errors.js';

export function oddsOnBiasedRig(dieOdds: readonly number[], face: number | readonly number[], excess: number, nominal?: readonly number[]): number[] {
  const k = dieOdds.length;
  // Several faces favoured as one: a symbol shown by more than one face (a D3's 3 on faces 5 and 6).
  const favouredFaces = new Set(typeof face === 'number' ? [face] : face);
  for (const f of favouredFaces) if (!Number.isInteger(f) || f < 0 || f >= k) throw new InputError(`Rig bias face index ${f} is not a face of a ${k}-faced die.`);
  if (favouredFaces.size === 0 || favouredFaces.size === k) throw new InputError(`Rig bias must favour some of a ${k}-faced die's faces, not ${favouredFaces.size === 0 ? 'none' : 'all'} of them.`);
  let base = 0;
  for (const f of favouredFaces) base += nominal === undefined ? 1 / k : (nominal[f] as number);
  if (!(excess > -base && excess < 1 - base)) throw new InputError(`Rig bias ${excess} must keep the favoured share between 0 and 1 (a fair die shows it ${base.toFixed(3)}).`);
  // Weights w with w_favoured / w_other chosen so a die with the nominal odds gets base + excess on the favoured faces.
  const favoured = (base + excess) / base;
  const other = (1 - base - excess) / (1 - base);
  const weighted = dieOdds.map((p, i) => p * (favouredFaces.has(i) ? favoured : other));
  const total = weighted.reduce((a, b) => a + b, 0);
  return weighted.map((w) => w / total);
}
