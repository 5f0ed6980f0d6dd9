/**
 * A head file (`vision adapt` writes it, `vision eval --learned --head` reads it): a last layer fitted on the user's
 * dice and the shipped network it was fitted on. Read back it is checked whole: a head of the wrong shape reads
 * every die as nothing (or crashes), and one fitted without some faces or dice names them all as something else.
 */
import { z } from 'zod';
import { InputError } from '../../core/errors.js';
import { builtInDice } from '../../dice/catalogue.js';
import { COCKED_LABEL, dieOfClass } from '../labelledEval.js';
import { notAFace } from '../labelClass.js';
import type { LearnedHead, LearnedModel } from './model.js';

/** A head file: the head and the network it was fitted on. */
export interface HeadFile {
  readonly model: string;
  readonly head: LearnedHead;
}

const finite = z.number().finite();
const headFileSchema = z.strictObject({
  model: z.string().min(1),
  head: z.strictObject({
    version: z.string().min(1),
    classes: z.array(z.string().min(1)).min(2),
    weights: z.array(finite).min(1),
    bias: z.array(finite).min(2),
    minProbability: z.number().min(0).max(1),
  }),
});

/** The die types `dice` (`d6`, `red`, `green`, `xwing`) reads. */
function diceOf(dice: string): string[] {
  return dice === 'xwing' ? ['red', 'green'] : [dice];
}

/** The classes of the dice `dice` reads (`d6` faces, or `red-hit`...) that `classes` lacks. */
export function missingClasses(classes: readonly string[], dice: string): string[] {
  return diceOf(dice).flatMap((die) => {
    const type = builtInDice.find((d) => d.id === die);
    return (type?.symbols ?? []).map((s) => (die === 'd6' ? s : `${die}-${s}`)).filter((c) => !classes.includes(c));
  });
}

/** Checks parsed JSON as a head file for `model`, read on `dice`; an InputError names the file and the problem. */
export function parseHeadFile(value: unknown, file: string, model: LearnedModel, dice: string): HeadFile {
  // Another network's head is named as such first, whatever else is wrong with it: fitting again is the fix.
  const named = value !== null && typeof value === 'object' ? (value as { model?: unknown }).model : undefined;
  if (typeof named === 'string' && named !== model.version) throw new InputError(`the head was fitted on ${named}, not on the shipped ${model.version}; fit it again (dicerig vision adapt).`, { file });
  const parsed = headFileSchema.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const path = first ? first.path.map(String).join('.') : '';
    throw new InputError(`not a head file of vision adapt: ${path ? `${path}: ` : ''}${first?.message ?? 'unknown problem'}.`, { file });
  }
  const { head } = parsed.data;
  const features = model.spec.convs[model.spec.convs.length - 1]?.out ?? 0;
  const k = head.classes.length;
  if (head.bias.length !== k) throw new InputError(`the head has ${head.bias.length} biases for its ${k} classes: the file is damaged; fit it again (dicerig vision adapt).`, { file });
  if (head.weights.length !== k * features) {
    throw new InputError(`the head has ${head.weights.length} weights; its ${k} classes on the ${features} features of ${model.version} need ${k * features}: the file is damaged; fit it again (dicerig vision adapt).`, { file });
  }
  if (new Set(head.classes).size !== k) throw new InputError(`the head names a class twice (${head.classes.join(', ')}).`, { file });
  for (const c of head.classes) {
    const wrong = notAFace(c);
    if (wrong !== undefined) throw new InputError(`the head's class "${c}": ${wrong}.`, { file });
  }
  // Every face of every die asked for: a face the head never learned, it reads as another.
  const missing = missingClasses(head.classes, dice);
  if (missing.length > 0) {
    const fitted = [...new Set(head.classes.filter((c) => c !== COCKED_LABEL).map(dieOfClass))].join(' and ');
    throw new InputError(`the head was fitted on ${fitted || 'no'} dice and has no class for ${missing.join(', ')}: it would read those faces as others. Fit a head on labelled ${dice} dice with every face (dicerig vision adapt --die ${dice}).`, { file });
  }
  return parsed.data;
}
