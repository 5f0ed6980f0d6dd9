/**
 * A learned network over D6 faces as the pip counter's second opinion
 * (`CombinedD6Reader`). The combined reader hands it the pip counter's crops:
 * a square around the labelled or located box, whose centre is the box's
 * centre, not the top face's (the learned cutter moves to the top face by
 * parallax, which needs the whole frame and the camera). The network then
 * samples `inputScale` die sizes around the box centre: a box-centred input.
 * A network trained that way (`--height-ratio 0`) reads about as well, but one
 * trained on top-face cuts loses much here (`learned-d6/4a2`: training/README.md).
 */
import { DicerigError } from '../../core/errors.js';
import type { D6SecondOpinion } from '../d6/combinedReader.js';
import type { DieCrop } from '../faceRead.js';
import type { LearnedReader } from './reader.js';

const D6_FACES = ['1', '2', '3', '4', '5', '6'];

/** The reader's face probabilities as a second opinion; its classes must be exactly the faces '1'..'6' in order. */
export function learnedD6Opinion(reader: LearnedReader): D6SecondOpinion {
  if (reader.classes.length !== D6_FACES.length || reader.classes.some((c, i) => c !== D6_FACES[i])) {
    throw new DicerigError(`${reader.classifierVersion} reads the classes ${reader.classes.join(', ')}, not the D6 faces 1..6 in order: it cannot be the pip counter's second opinion`, { model: reader.classifierVersion });
  }
  return { classifierVersion: reader.classifierVersion, probabilities: (crop: DieCrop) => reader.probabilities(crop) };
}
