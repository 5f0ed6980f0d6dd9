/** A checked request in a few words, for the queue and the overlay: "3 red", "3 red (focus, lock) vs 2 green", "4 dice at 4+". */
import { formatDice } from './diceText.js';
import type { RollSpec } from './request.js';

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
    case 't9a': {
      const t = spec.t9a;
      return `${t.dice}${t.d3 ? 'd3' : 'd6'}${t.total ? ' total' : ''}${t.target !== undefined ? ` at ${t.target}+` : ''}${t.reroll !== 'none' ? `, reroll ${t.reroll}` : ''}${t.maximised ? ', maximised' : ''}${t.minimised ? ', minimised' : ''}`;
    }
    case 'fumble':
      return `fumble${spec.exclude.length ? ` (not ${spec.exclude.join(', ')})` : ''}`;
  }
}
