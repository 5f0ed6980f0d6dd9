/**
 * Writes a shipped learned network's weights for torch (development time only): PREFIX.f32 (little-endian float32,
 * TinyNet's order) and PREFIX.json (its NetSpec, classes and probe), which state_from_weights.py turns into a torch
 * state_dict for train.py --load-torch, checking the probe. Lets a run start from the shipped weights when the torch
 * state of the run that made them is gone.
 *   npx tsx training/learned/exportWeights.ts --model xwing --out /tmp/xw/shipped
 *   npx tsx training/learned/exportWeights.ts --model xwing --cocked-check --out /tmp/xw/shipped-cocked   (its cocked check's network)
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { decodeWeights } from '../../src/vision/d6/netReader.js';
import { shippedLearnedModels } from '../../src/vision/learned/shipped.js';

const { values } = parseArgs({ options: { model: { type: 'string' }, out: { type: 'string' }, 'cocked-check': { type: 'boolean', default: false } } });
const named = values.model !== undefined ? shippedLearnedModels[values.model] : undefined;
if (named === undefined || values.out === undefined) {
  process.stderr.write(`exportWeights: --model ${Object.keys(shippedLearnedModels).join('|')} [--cocked-check] --out PREFIX\n`);
  process.exit(2);
}
const model = values['cocked-check'] ? named.cockedCheck?.net : named;
if (model === undefined) {
  process.stderr.write(`exportWeights: ${named.version} has no cocked check network\n`);
  process.exit(2);
}
const weights = decodeWeights(model.weightsBase64);
writeFileSync(`${values.out}.f32`, Buffer.from(weights.buffer, weights.byteOffset, weights.byteLength));
writeFileSync(`${values.out}.json`, JSON.stringify({ version: model.version, spec: model.spec, classes: model.classes, probe: model.probe ?? null }, null, 1));
process.stdout.write(`${model.version}: ${weights.length} weights -> ${values.out}.f32\n`);
