/**
 * Dice `calibrate --check` read on labelled images a profile never saw, kept in the profile (`checked`): each check
 * adds its confusion matrix to those of the checks before it, and the profile is sealed again (a new hash: sessions
 * record which measure their verdicts rested on). Pure.
 */
import type { CalibrationProfile } from './profile.js';
import { sealProfile } from './profile.js';

export interface Confusion {
  readonly rows: readonly string[];
  readonly columns: readonly string[];
  readonly counts: readonly (readonly number[])[];
}

/** The sum of two confusion matrices, cell by row and column name: `a`'s rows and columns first, then `b`'s new ones. */
export function addConfusion(a: Confusion, b: Confusion): Confusion {
  const rows = [...a.rows, ...b.rows.filter((r) => !a.rows.includes(r))];
  const columns = [...a.columns, ...b.columns.filter((c) => !a.columns.includes(c))];
  const cell = (m: Confusion, r: string, c: string): number => {
    const i = m.rows.indexOf(r);
    const j = m.columns.indexOf(c);
    return i < 0 || j < 0 ? 0 : (m.counts[i]?.[j] ?? 0);
  };
  return { rows, columns, counts: rows.map((r) => columns.map((c) => cell(a, r, c) + cell(b, r, c))) };
}

/** A confusion matrix copied into plain arrays, as a profile or a check stores it. */
export function storedConfusion(m: Confusion): { rows: string[]; columns: string[]; counts: number[][] } {
  return { rows: [...m.rows], columns: [...m.columns], counts: m.counts.map((r) => [...r]) };
}

/** The profile with `images` more checked images read as `confusion`, made at `createdAt`, sealed again. */
export function withCheckedDice(profile: CalibrationProfile, images: number, confusion: Confusion, createdAt: string): CalibrationProfile {
  const { hash: _hash, checked, ...rest } = profile;
  const sum = checked ? addConfusion(checked.confusion, confusion) : confusion;
  return sealProfile({ ...rest, createdAt, checked: { images: (checked?.images ?? 0) + images, confusion: storedConfusion(sum) } });
}

/**
 * The command that narrows a profile's misread bounds, as sessions, plans, reports and `calibrate` name it: new rolls
 * thrown on the rig and named a group at a time, or rolls labelled already.
 */
export function narrowingCommand(profile = 'PROFILE', camera = 'DEVICE'): string {
  return `dicerig calibrate --check ${profile} --camera ${camera} -o NEW.json: new throws on the rig, named a group at a time; or --images DIR instead of --camera, for rolls labelled already`;
}
