/**
 * A rig that favours a face: the odds a die shows on that rig. The rig's
 * effect multiplies the die's own odds face by face (the two-way model of die
 * and rig the rig-effect tests assume), scaled so that a die with the
 * `nominal` odds (default: uniform) shows the favoured face `excess` more
 * often than expected.
 */
import { InputError } from '../core/errors.js';

export function oddsOnBiasedRig(dieOdds: readonly number[], face: number, excess: number, nominal?: readonly number[]): number[] {
  const k = dieOdds.length;
  if (!Number.isInteger(face) || face < 0 || face >= k) throw new InputError(`Rig bias face index ${face} is not a face of a ${k}-faced die.`);
  const base = nominal === undefined ? 1 / k : (nominal[face] as number);
  if (!(excess > -base && excess < 1 - base)) throw new InputError(`Rig bias ${excess} must keep the favoured face's share between 0 and 1 (a fair die shows it ${base.toFixed(3)}).`);
  // Weights w with w_face / w_other chosen so a die with the nominal odds gets base + excess on `face`.
  const favoured = (base + excess) / base;
  const other = (1 - base - excess) / (1 - base);
  const weighted = dieOdds.map((p, i) => p * (i === face ? favoured : other));
  const total = weighted.reduce((a, b) => a + b, 0);
  return weighted.map((w) => w / total);
}
