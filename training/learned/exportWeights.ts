/**
 * Writes a learned network's weights for torch (development time only): PREFIX.f32 (little-endian float32, TinyNet's
 * order) and PREFIX.json (its NetSpec, classes and probe), which state_from_weights.py turns into a torch state_dict
 * for train.py --load-torch, checking the probe. Lets a run start from shipped weights when the torch state of the
 * run that made them is gone.
 *   npx tsx training/learned/exportWeights.ts --model xwing --out /tmp/xw/shipped          (a shipped model by name)
 *   git show b9371e5:src/vision/learned/weights/xwingCocked.ts > /tmp/xw/cocked3.ts
 *   npx tsx training/learned/exportWeights.ts --module /tmp/xw/cocked3.ts --out /tmp/xw/cocked3   (a generated weights module, any version)
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { decodeWeights } from '../../src/vision/d6/netReader.js';
import type { LearnedModel } from '../../src/vision/learned/model.js';
import { shippedLearnedModels } from '../../src/vision/learned/shipped.js';

function fail(message: string): never {
  process.stderr.write(`exportWeights: ${message}\n`);
  process.exit(2);
}

const { values } = parseArgs({ options: { model: { type: 'string' }, module: { type: 'string' }, out: { type: 'string' } } });
if (values.out === undefined || (values.model === undefined) === (values.module === undefined)) {
  fail(`--model ${Object.keys(shippedLearnedModels).join('|')} or --module FILE (a generated weights module), and --out PREFIX`);
}

async function fromModule(file: string): Promise<LearnedModel> {
  // A generated module exports one model (train.py writes it); its only import is a type, so any copy of it loads.
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(pathToFileURL(resolve(file)).href)) as Record<string, unknown>;
  } catch (err) {
    return fail(`cannot load ${file}: ${(err as Error).message.split('\n')[0]}`);
  }
  const exported = Object.values(loaded) as Partial<LearnedModel>[];
  const models = exported.filter((m) => typeof m?.weightsBase64 === 'string');
  if (models.length !== 1) fail(`${file} exports ${models.length} learned models; a generated weights module exports one`);
  return models[0] as LearnedModel;
}

const model = values.module !== undefined ? await fromModule(values.module) : shippedLearnedModels[values.model as string];
if (model === undefined) fail(`no shipped model "${values.model}" (${Object.keys(shippedLearnedModels).join(', ')})`);
const weights = decodeWeights(model.weightsBase64);
writeFileSync(`${values.out}.f32`, Buffer.from(weights.buffer, weights.byteOffset, weights.byteLength));
// What made the weights travels with them, so a run started from them records it (state_from_weights.py, train.py).
const made = { command: model.command, dataHash: model.dataHash, trainedOn: model.trainedOn };
writeFileSync(`${values.out}.json`, JSON.stringify({ version: model.version, spec: model.spec, classes: model.classes, probe: model.probe ?? null, made }, null, 1));
process.stdout.write(`${model.version}: ${weights.length} weights -> ${values.out}.f32\n`);
