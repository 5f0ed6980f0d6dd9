/** A checked request in a few words, for the queue and the overlay: "3 red", "3 red (focus, lock) vs 2 green", "4 dice at 4+". */
import { formatDice } from './diceText.js';
import type { RollSpec, T9aInput } from './request.js';

/**
 * A 9th Age roll, as its answer's line heads it: "3 dice at 4+" (three rolls of one die, not a 3D6 total), "2d6 total
 * at 7+", with its rules and how many times each applies ("maximised x2").
 */
export function describeT9a(t: T9aInput): string {
  const times = (name: string, n: number): string => (n > 0 ? `${name}${n > 1 ? ` x${n}` : ''}` : '');
  const mods = [times('maximised', t.maximised), times('minimised', t.minimised), t.reroll !== 'none' ? `reroll ${t.reroll}` : ''].filter((m) => m !== '').join(', ');
  const what = t.total ? `${t.dice}${t.d3 ? 'd3' : 'd6'} total` : `${t.dice} ${t.d3 ? 'D3' : t.dice === 1 ? 'die' : 'dice'}`;
  return `${what}${t.target !== undefined ? ` at ${t.target}+` : ''}${mods ? ` (${mods})` : ''}`;
}

export function describeSpec(spec: RollSpec): string {
  switch (spec.kind) {
    case 'dice':
      return formatDice(spec.groups);
    case 'attack': {
      const a = spec.attack;
      const t = [a.focus ? 'focus' : '', a.lock ? 'lock' : '', a.force ? 'force' : ''].filter((x) => x !== '');
      const d = spec.defense;
      const dt = d ? [d.focus ? 'focus' : '', d.force ? 'force' : ''].filter((x) => x !== '') : [];
      return `${a.red} red${t.length ? ` (${t.join(', ')})` : ''}${d && d.green > 0 ? ` vs ${d.green} green${dt.length ? ` (${dt.join(', ')})` : ''}` : ''}`;
    }
    case 't9a':
      return describeT9a(spec.t9a);
    case 'fumble':
      return `fumble${spec.exclude.length ? ` (not ${spec.exclude.join(', ')})` : ''}`;
  }
}
