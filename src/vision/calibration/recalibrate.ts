/**
 * The command that makes a learned profile again from the dice it was made from. An upgrade that ships a new network
 * retires the profiles calibrated for the old one; the user should not have to remember which folder and flags made it.
 */

/** What of a profile the command is rebuilt from. */
export interface RecalibrationSource {
  readonly dice: readonly string[];
  readonly classifier: { readonly hfovDeg?: number };
  readonly training: { readonly source: string };
}

// `calibrate --from-labelled` records its source as `labelled folder <images dir> (<n> images, <m> dice)`.
const LABELLED_SOURCE = /^labelled folder (.+) \(\d+ images?, \d+ (?:dice|die)\)$/;

/**
 * `dicerig calibrate ...` remaking this profile into `file`, or undefined when its source is not a labelled folder
 * (then only the user knows where its dice are).
 */
export function recalibrateCommand(profile: RecalibrationSource, file?: string): string | undefined {
  const match = LABELLED_SOURCE.exec(profile.training.source);
  if (!match?.[1]) return undefined;
  // The images of a dataset root (DIR/images beside DIR/labels): calibrate given DIR finds both again.
  const images = match[1];
  const folder = /[\\/]images$/.test(images) ? images.slice(0, -'/images'.length) : images;
  const die = calibrateDie(profile.dice);
  if (die === undefined) return undefined;
  const hfov = profile.classifier.hfovDeg !== undefined ? ` --hfov ${profile.classifier.hfovDeg}` : '';
  return `dicerig calibrate --die ${die} --from-labelled ${shellWord(folder)}${hfov} -o ${shellWord(file ?? 'PROFILE.json')}`;
}

/** `calibrate --die` for a profile's dice: both colours are X-Wing's pair. */
function calibrateDie(dice: readonly string[]): 'red' | 'green' | 'xwing' | undefined {
  const red = dice.includes('red');
  const green = dice.includes('green');
  if (dice.length === 2 && red && green) return 'xwing';
  if (dice.length === 1) return red ? 'red' : green ? 'green' : undefined;
  return undefined;
}

/** A word the shell reads back unchanged: quoted when it holds anything but plain path characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
