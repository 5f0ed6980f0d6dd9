/**
 * What a session config's schema cannot say: its dice exist (built in, or defined in its own `dieTypes`) and a reader
 * can read them, its labels are unique, its simulated-only settings go with the simulated camera, its rig driver
 * exists. Checked on the raw value, beside the schema rather than after it, so a
 * config with several problems has them all reported at once (a user fixing one at a time ran it seven times).
 */
import { z } from 'zod';
import { getDieType } from '../dice/catalogue.js';
import { dieTypeSchema, dieTypesProblems } from '../dice/dieTypeData.js';
import { isD6Faced } from '../dice/indexing.js';
import type { DieType } from '../dice/types.js';
import { rigFactories } from '../rig/factory.js';
import { noReaderFor } from './readerRule.js';
import { loadProblem, rigBiasProblem } from './simulatedDice.js';

type Path = readonly (string | number)[];
/** Records one problem at a key path. */
export type AddProblem = (path: Path, problem: string) => void;

const record = (v: unknown): Record<string, unknown> | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

function dieTypeOf(d: Record<string, unknown>, i: number, own: readonly DieType[], add: AddProblem): DieType | undefined {
  if (typeof d.type !== 'string' || d.type === '') return undefined; // the schema says so
  let type: DieType;
  try {
    type = getDieType(d.type, own);
  } catch (e) {
    add(['dice', i, 'type'], `${(e as Error).message.replace(/\.$/, '')}${own.length === 0 ? ' (a die of your own: give its dice file as diceFile, or run --dice-file)' : ''}`);
    return undefined;
  }
  // Said here, before a store is made or a rig touched: a session reads its dice with the pip reader or an X-Wing profile.
  const unread = noReaderFor(type);
  if (unread !== undefined) add(['dice', i, 'type'], unread);
  return type;
}

/** The config's own die types (`dieTypes`), each checked; undefined when they cannot be read (the schema says why). */
function ownDieTypes(value: unknown, add: AddProblem): DieType[] | undefined {
  if (value === undefined) return [];
  const parsed = z.array(dieTypeSchema).safeParse(value);
  if (!parsed.success) return undefined;
  const problems = dieTypesProblems(parsed.data);
  for (const p of problems) add(['dieTypes', ...p.path], p.problem);
  return problems.length === 0 ? parsed.data : undefined;
}

/** Adds every problem of `value` (a parsed config file, before defaults) that the schema does not check. */
export function checkConfigMeaning(value: unknown, add: AddProblem): void {
  const top = record(value);
  if (top === undefined) return;
  const driver = record(top.rig)?.driver;
  if (typeof driver === 'string' && driver !== '' && !rigFactories.has(driver)) add(['rig', 'driver'], `there is no rig driver "${driver}"; choose one of ${rigFactories.names().join(', ')}`);
  const camera = record(top.camera);
  // No camera section is the simulated camera (the schema's default).
  const simCamera = camera === undefined || camera.source === 'sim';
  const dice = Array.isArray(top.dice) ? top.dice : [];
  const own = ownDieTypes(top.dieTypes, add);
  const types: (DieType | undefined)[] = [];
  const seen = new Map<string, number>();
  dice.forEach((raw, i) => {
    const d = record(raw);
    if (d === undefined) return;
    // Own die types that cannot be read leave the dice they define unknown: their problems are said, not the dice's.
    const type = own === undefined ? undefined : dieTypeOf(d, i, own, add);
    types.push(type);
    if (typeof d.label === 'string' && d.label.trim() !== '') {
      const label = d.label.trim();
      const other = seen.get(label);
      if (other !== undefined) add(['dice', i, 'label'], `"${label}" is already the label of dice[${other}]; a label names one physical die`);
      seen.set(label, i);
    }
    const load = record(d.simulatedLoad);
    if (load !== undefined && !simCamera) add(['dice', i, 'simulatedLoad'], 'only the simulated camera can load a die; remove it for a real camera');
    else if (load !== undefined && type !== undefined && typeof load.symbol === 'string' && typeof load.factor === 'number') {
      const bad = loadProblem(type, { symbol: load.symbol, factor: load.factor });
      if (bad !== undefined) add(['dice', i, 'simulatedLoad', bad.key], bad.problem);
    }
    if (d.simulatedLogo !== undefined && !simCamera) add(['dice', i, 'simulatedLogo'], 'only the simulated camera draws a logo on a die; a real die shows its own (remove it for a real camera)');
    else if (d.simulatedLogo !== undefined && type !== undefined && !isD6Faced(type)) add(['dice', i, 'simulatedLogo'], `a logo replaces a D6 face's pips, and a ${type.id} die has none`);
  });
  // The rig's bias applies to every die: checked against each known one, once per die type.
  const bias = simCamera ? record(camera?.rigBias) : undefined;
  if (bias !== undefined && typeof bias.symbol === 'string' && typeof bias.excess === 'number') {
    for (const t of new Map(types.flatMap((t) => (t === undefined ? [] : [[t.id, t] as const]))).values()) {
      const bad = rigBiasProblem(t, { symbol: bias.symbol, excess: bias.excess });
      if (bad !== undefined) add(['camera', 'rigBias', bad.key], bad.problem);
    }
  }
  const misreads = simCamera ? record(camera?.misreads) : undefined;
  // Judged only against dice that all exist: an unknown die's faces are unknown.
  if (misreads === undefined || types.length === 0 || types.some((t) => t === undefined)) return;
  const faces = new Set(types.flatMap((t) => [...(t as DieType).symbols, ...(t as DieType).faces.map((f) => f.id)]));
  for (const key of Object.keys(misreads)) {
    const bad = key.split('>').find((f) => f !== '' && !faces.has(f));
    if (bad !== undefined) add(['camera', 'misreads', key], `"${bad}" is not a face or symbol of these dice`);
  }
}
