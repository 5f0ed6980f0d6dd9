/** Header aliases accepted for each column of a roll log (compared case-insensitively, spaces/dashes as underscores). */
export const COLUMN_ALIASES = {
  die: ['die', 'die_id', 'die_label', 'label', 'dice', 'serial'],
  type: ['type', 'die_type', 'dietype', 'kind', 'colour', 'color'],
  face: ['face', 'face_id', 'faceid'],
  symbol: ['symbol', 'result', 'outcome', 'value', 'roll'],
  throw: ['throw', 'throw_index', 'throw_no', 'throw_number'],
  resolution: ['resolution'],
  reviewer: ['reviewer', 'reviewed_by'],
  simulated: ['simulated'],
  // Read for `import` only (`ParseOptions.rollDetails`): an analysis judges outcomes.
  channel: ['channel'],
  confidence: ['confidence'],
  classifier: ['classifier', 'classifier_version'],
  // The time the roll's throw was read, as `dicerig export` writes it (format version 3).
  time: ['time', 'thrown_at'],
} as const;

export type ColumnRole = keyof typeof COLUMN_ALIASES;

export function normaliseHeader(name: string): string {
  return name.trim().toLowerCase().replace(/[\s-]+/g, '_');
}

/** Finds which column index plays each role; a role absent from the header is left out. */
export function findColumns(header: readonly string[]): Partial<Record<ColumnRole, number>> {
  const normalised = header.map(normaliseHeader);
  const found: Partial<Record<ColumnRole, number>> = {};
  for (const role of Object.keys(COLUMN_ALIASES) as ColumnRole[]) {
    const idx = normalised.findIndex((h) => (COLUMN_ALIASES[role] as readonly string[]).includes(h));
    if (idx >= 0) found[role] = idx;
  }
  return found;
}
