import { readFileSync } from 'node:fs';
import { designFiguresText, DESIGN_FIGURES_FILE } from './designFigures.js';
import { loadPresets } from './rigDesign.js';
import { SCAD_PRESETS_FILE, scadPresetsText } from './scadParams.js';
import { PROTOCOL_FILE, WIRING_FILE, wiringSvg } from './wiringDiagram.js';
import type { ProtocolTable } from './wiringDiagram.js';

/** Every generated hardware file, path to text, from the current sources. */
export function generatedFiles(): Record<string, string> {
  const presets = loadPresets();
  const protocol = JSON.parse(readFileSync(PROTOCOL_FILE, 'utf8')) as ProtocolTable;
  return {
    [SCAD_PRESETS_FILE]: scadPresetsText(presets),
    [WIRING_FILE]: wiringSvg(protocol),
    [DESIGN_FIGURES_FILE]: designFiguresText(presets),
  };
}
