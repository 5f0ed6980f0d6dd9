/**
 * Writes the files generated from hardware/presets.json and firmware/protocol/protocol.json:
 * hardware/parts/presets.scad, hardware/wiring.svg and hardware/design-figures.md.
 * Tests fail while any of them is stale.   npx tsx scripts/hardware/generate.ts
 */
import { writeFileSync } from 'node:fs';
import { generatedFiles } from './generatedFiles.js';

for (const [path, text] of Object.entries(generatedFiles())) {
  writeFileSync(path, text);
  console.log(`wrote ${path}`);
}
