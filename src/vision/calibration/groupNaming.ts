/**
 * Naming groups of similar dice, the guided calibration's last step whichever
 * reader groups them: the groups are shown to the user (pictures), then each
 * is named once, from a labels file or by asking, as a class of the dice
 * calibrated, `cocked` or `skip`; or `split`, where the grouper can split
 * (a group showing two faces is grouped again into smaller ones, each named in
 * turn: naming it by its commoner face would label the others wrong).
 */
import type { DieType } from '../../dice/types.js';
import { DicerigError, InputError } from '../../core/errors.js';
import type { RgbImage } from '../../core/image.js';
import { COCKED_CLASS, parseClassName } from './profile.js';

/** Asks the user a question and returns the answer. */
export type Prompt = (question: string) => Promise<string>;

/** A named answer that means "leave this group out". */
export const SKIP_NAME = 'skip';

/** A named answer that means "this group shows more than one face: group it again, smaller". */
export const SPLIT_NAME = 'split';

/** Groups split into this many at most. */
const SPLIT_INTO = 4;

/** "1 die", "3 dice". */
function diceCount(n: number): string {
  return `${n} ${n === 1 ? 'die' : 'dice'}`;
}

/** A group of dice (indexes into the caller's dice). */
export interface MemberGroup {
  readonly id: number;
  /** Those nearest the group's centre first. */
  readonly members: readonly number[];
  readonly looksCocked: boolean;
}

/** How the caller shows a group and splits one. */
export interface Grouper {
  readonly view: (group: MemberGroup) => ClusterView;
  /** Groups `members` into at most `parts` smaller groups (each nearest its centre first); absent: no splitting. */
  readonly split?: (members: readonly number[], parts: number) => number[][];
}

export interface ClusterView {
  readonly id: number;
  readonly size: number;
  /** Crops to show the user, nearest the group's centre first. */
  readonly typical: readonly RgbImage[];
  /** Whether the group was set apart because its dice look cocked. */
  readonly looksCocked: boolean;
  /** The name given (a class, `cocked` or `skip`). */
  readonly name?: string;
  /** Simulated camera only: true classes of the members, to check the grouping. */
  readonly truth?: Readonly<Record<string, number>>;
}

export interface GroupNamingOptions {
  readonly log: (line: string) => void;
  /** Names by group id (from a labels file); groups without one are asked through `prompt`. */
  readonly names?: ReadonlyMap<number, string>;
  readonly prompt?: Prompt;
  /** Shows the groups to the user (e.g. writes pictures and a listing) before any is named; returns where to look, by group id. */
  readonly showGroups?: (clusters: readonly ClusterView[]) => Promise<ReadonlyMap<number, string>>;
}

/** The answers a group may be given for these dice: `<die>-<symbol>` (or the bare symbol with one die), `cocked`, `skip`. */
export function allowedNames(dice: readonly DieType[]): string[] {
  return [...dice.flatMap((d) => d.symbols.map((s) => `${d.id}-${s}`)), COCKED_CLASS, SKIP_NAME];
}

/** Normalises an answer to a class name, or undefined when it names none (`split` only where `canSplit`). */
export function normaliseName(answer: string, dice: readonly DieType[], canSplit = false): string | undefined {
  const a = answer.trim().toLowerCase();
  if (a === COCKED_CLASS || a === SKIP_NAME || (canSplit && a === SPLIT_NAME)) return a;
  const parsed = parseClassName(a);
  if (parsed !== undefined && parsed !== COCKED_CLASS && dice.some((d) => d.id === parsed.die && d.symbols.includes(parsed.symbol))) return a;
  if (dice.length === 1 && (dice[0] as DieType).symbols.includes(a)) return `${(dice[0] as DieType).id}-${a}`;
  return undefined;
}

async function nameOf(cluster: ClusterView, where: string | undefined, options: GroupNamingOptions, dice: readonly DieType[], canSplit: boolean): Promise<string> {
  // With one die type its faces are offered bare ("hit", "3"), as they may be answered.
  const only = dice.length === 1 ? `${(dice[0] as DieType).id}-` : undefined;
  const allowed = [...allowedNames(dice).map((n) => (only !== undefined && n.startsWith(only) ? n.slice(only.length) : n)), ...(canSplit ? [SPLIT_NAME] : [])];
  const given = options.names?.get(cluster.id);
  if (given !== undefined) {
    const name = normaliseName(given, dice, canSplit);
    if (name === undefined) throw new InputError(`group ${cluster.id} is named "${given}", which is none of: ${allowed.join(', ')}.`);
    return name;
  }
  if (!options.prompt) {
    throw new DicerigError(`Group ${cluster.id} has no name and there is no one to ask: name every group in a labels file (lines "<group> <name>", names: ${allowed.join(', ')}) and pass it with --labels-from.`);
  }
  const one = cluster.size === 1;
  const question =
    `Group ${cluster.id}: ${diceCount(cluster.size)}${cluster.looksCocked ? (one ? ' that looks cocked' : ' that look cocked') : ''}${where ? ` (see ${where})` : ''}. ` +
    `${one ? 'What does it show?' : 'What do they show?'} (${allowed.join(', ')}${canSplit ? `: ${SPLIT_NAME} when they show more than one` : ''}) `;
  for (let attempt = 0; attempt < 5; attempt++) {
    const answer = await options.prompt(question);
    const name = normaliseName(answer, dice, canSplit);
    if (name !== undefined) return name;
    options.log(`"${answer.trim()}" is not one of: ${allowed.join(', ')}.`);
  }
  throw new InputError(`no usable name for group ${cluster.id} after five answers.`);
}

/** A named group: its dice and what the user called them (a class, `cocked`, `skip`, or `split` for one grouped again). */
export interface NamedGroup {
  readonly group: MemberGroup;
  readonly view: ClusterView;
}

/**
 * Shows the groups, then names each once; a group answered `split` is grouped again into smaller ones (new ids after
 * the highest), which are shown and named in its place. Returns every group named, split ones included, in the order named.
 */
export async function nameGroups(groups: readonly MemberGroup[], grouper: Grouper, options: GroupNamingOptions, dice: readonly DieType[]): Promise<NamedGroup[]> {
  const all = groups.map((group) => ({ group, view: grouper.view(group) }));
  let shown = options.showGroups ? await options.showGroups(all.map((g) => g.view)) : new Map<number, string>();
  let nextId = Math.max(0, ...groups.map((g) => g.id)) + 1;
  const queue = [...all];
  const named: NamedGroup[] = [];
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
    const { group, view } = item;
    const canSplit = grouper.split !== undefined && group.members.length >= 2;
    const name = await nameOf(view, shown.get(group.id), options, dice, canSplit);
    named.push({ group, view: { ...view, name } });
    // Shown again after a split, the groups named so far carry their names.
    all[all.findIndex((g) => g.group === group)] = { group, view: { ...view, name } };
    if (name !== SPLIT_NAME) continue;
    const parts = (grouper.split as NonNullable<Grouper['split']>)(group.members, Math.min(SPLIT_INTO, group.members.length));
    const pieces = parts.map((members) => {
      const piece: MemberGroup = { id: nextId++, members, looksCocked: group.looksCocked };
      return { group: piece, view: grouper.view(piece) };
    });
    options.log(`  group ${group.id} split into ${pieces.map((p) => `${p.group.id} (${diceCount(p.group.members.length)})`).join(', ')}.`);
    all.push(...pieces);
    if (options.showGroups) shown = await options.showGroups(all.map((g) => g.view));
    queue.unshift(...pieces);
  }
  return named;
}

/** Each of `count` dice's name from the groups named (undefined: in a group skipped or split, or in none). */
export function memberNames(named: readonly NamedGroup[], count: number): (string | undefined)[] {
  const names = new Array<string | undefined>(count).fill(undefined);
  for (const { group, view } of named) if (view.name !== SKIP_NAME && view.name !== SPLIT_NAME) for (const m of group.members) names[m] = view.name;
  return names;
}

/** True classes of a group's members, counted (simulated camera only; undefined when none is known). */
export function truthCounts(truths: readonly (string | undefined)[]): Record<string, number> | undefined {
  const counts: Record<string, number> = {};
  for (const t of truths) if (t !== undefined) counts[t] = (counts[t] ?? 0) + 1;
  return Object.keys(counts).length > 0 ? counts : undefined;
}

/**
 * Parses a labels file naming groups: one `<group> <name>` per line (also
 * `<group>: <name>` or `<group>=<name>`); blank lines and `#` comments are ignored.
 */
export function parseGroupNames(text: string, file?: string): Map<number, string> {
  const names = new Map<number, string>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') return;
    const m = /^(\d+)\s*[:=]?\s*(\S+)$/.exec(line);
    if (!m) throw new InputError(`expected "<group> <name>" (e.g. "3 red-hit"), found "${line}"`, { ...(file !== undefined ? { file } : {}), line: i + 1 });
    const id = Number(m[1]);
    if (names.has(id)) throw new InputError(`group ${id} is named twice`, { ...(file !== undefined ? { file } : {}), line: i + 1 });
    names.set(id, m[2] as string);
  });
  return names;
}
