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
