/**
 * Whether a die's rolls are those its session's verdict was made on: the verdict stores the counts it was made from,
 * and the rolls may since have been edited (a file) or relabelled (a review correction). Rolls unresolved when the
 * verdict was made may have been labelled since: the verdict held whatever they were.
 */
import { formatCount } from '../core/format.js';
import { sameDieId } from '../dice/catalogue.js';
import type { DieType } from '../dice/types.js';
import type { DieLog, DieRolls } from '../rolllog/types.js';

/** What a stored verdict says of the counts it was made from: its faces' labels, and per face the rolls it counted. */
export interface VerdictCounts {
  readonly faces?: readonly { readonly label: string }[];
  readonly partial?: { readonly counts: readonly number[]; readonly unresolved: number };
}

/**
 * How the die's rolls (in a file, or as its session's counted rolls now stand) differ from the counts its verdict was made from:
 * the faces that differ, as the verdict counted them (`then`) and as the rolls hold them (`now`) (undefined when they do not, or
 * when the verdict stored no counts). The file may hold more of a face than the verdict counted only by rolls that
 * were unresolved then, and no fewer of any.
 */
export function countsDiffer(die: DieLog, verdict: VerdictCounts, dice: readonly DieType[]): { then: string; now: string } | undefined {
  const type = die.typeId === undefined ? undefined : dice.find((d) => sameDieId(d.id, die.typeId as string));
  return tokenCountsDiffer(die, verdict, type);
}

/** `countsDiffer` of a die's matched rolls (`DieRolls`: codes into its type's face ids, or its symbols). */
export function rollCountsDiffer(r: DieRolls, verdict: VerdictCounts): { then: string; now: string } | undefined {
  const byFace = r.faces !== undefined && (verdict.faces ?? []).every((f) => r.die.faces.some((x) => x.id === f.label));
  const tokens = byFace ? { dictionary: r.die.faces.map((f) => f.id), codes: r.faces as Uint8Array } : { dictionary: [...r.die.symbols], codes: r.symbols };
  return tokenCountsDiffer(tokens, verdict, r.die);
}

/** Rolls as tokens: each roll's index into `dictionary` (face ids or symbols). */
interface Tokens {
  readonly dictionary: readonly string[];
  readonly codes: ArrayLike<number>;
}

function tokenCountsDiffer(die: Tokens, verdict: VerdictCounts, type: DieType | undefined): { then: string; now: string } | undefined {
  const labels = verdict.faces?.map((f) => f.label);
  const counted = verdict.partial?.counts;
  if (labels === undefined || counted === undefined) return undefined;
  const here = countsByLabel(die, labels, type);
  if (here === undefined) return { then: labels.join(', '), now: `also ${die.dictionary.filter((t) => labelOf(t, labels, type) < 0).join(', ')}` };
  const lessNow = labels.filter((_, i) => (here[i] as number) < (counted[i] as number));
  const gained = here.reduce((sum, n, i) => sum + n - (counted[i] as number), 0);
  const unresolvedThen = verdict.partial?.unresolved ?? 0;
  if (lessNow.length === 0 && gained <= unresolvedThen) return undefined;
  const changed = labels.map((l, i) => ({ l, then: counted[i] as number, now: here[i] as number })).filter((x) => x.then !== x.now);
  return { then: changed.map((x) => `${x.l} ${formatCount(x.then)}`).join(', '), now: changed.map((x) => `${x.l} ${formatCount(x.now)}`).join(', ') };
}

/** The die's read rolls counted by `labels` (face ids, or symbols a log of face ids is mapped to); undefined if one is none of them. */
function countsByLabel(die: Tokens, labels: readonly string[], type: DieType | undefined): number[] | undefined {
  const index = die.dictionary.map((t) => labelOf(t, labels, type));
  if (index.some((i) => i < 0)) return undefined;
  const counts = labels.map(() => 0);
  for (let k = 0; k < die.codes.length; k++) {
    const i = index[die.codes[k] as number] as number;
    counts[i] = (counts[i] as number) + 1;
  }
  return counts;
}

function labelOf(token: string, labels: readonly string[], type: DieType | undefined): number {
  const own = labels.indexOf(token);
  if (own >= 0) return own;
  const symbol = type?.faces.find((f) => f.id === token)?.symbol;
  return symbol === undefined ? -1 : labels.indexOf(symbol);
}
