/** A D6 of the user's own claiming its own odds (1 and 2 at 0.1, 3 and 4 at 0.15, 5 at 0.2, 6 at 0.3), as a dice file. */
export const LOADED_CLAIM_DICE = `dice:
  - id: loaded-claim
    extends: d6
    name: Loaded claim
    faces:
      - { id: "1", symbol: "1", probability: 0.1 }
      - { id: "2", symbol: "2", probability: 0.1 }
      - { id: "3", symbol: "3", probability: 0.15 }
      - { id: "4", symbol: "4", probability: 0.15 }
      - { id: "5", symbol: "5", probability: 0.2 }
      - { id: "6", symbol: "6", probability: 0.3 }
    opposite: { "1": "6", "2": "5", "3": "4" }
`;

/** A D6 of the user's own whose faces show game symbols (skull, skull, shield, shield, blank, crit), so its faces and symbols are not the d6's; the simulated camera reads its pips. */
export const SKULL6_DIE = `id: skull6
extends: d6
faces:
  - { id: "1", symbol: skull }
  - { id: "2", symbol: skull }
  - { id: "3", symbol: shield }
  - { id: "4", symbol: shield }
  - { id: "5", symbol: blank }
  - { id: "6", symbol: crit }
`;

/** A die definition as an item of a dice file's \`dice:\` list. */
export function listItem(definition: string): string {
  return definition
    .trimEnd()
    .split('\n')
    .map((line, i) => `${i === 0 ? '  - ' : '    '}${line}`)
    .join('\n');
}
