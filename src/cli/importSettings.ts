import { FALLBACK_SETTINGS, sessionSettings } from '../report/storedSessionReport.js';
import type { ImportSource } from '../store/importRolls.js';

export interface DecisionSettings {
  readonly alpha: number;
  readonly delta: number;
  readonly serialAlpha: number;
}

/**
 * The decision settings an import keeps: those of the exported session, when
 * every file's manifest carries them and they agree (a file without one, or
 * two sessions run at different settings, leave the defaults), and the line
 * that says so; nothing when no file has a manifest.
 */
export function importSettings(sources: readonly ImportSource[]): { settings?: DecisionSettings; line?: string } {
  if (sources.every((s) => s.manifest === undefined)) return {};
  const each = sources.map((s) => ({ file: s.file, settings: settingsOf(s.manifest?.session['config']) }));
  const first = each[0]?.settings;
  if (first !== undefined && each.every((e) => e.settings !== undefined && same(e.settings, first))) {
    return { settings: first, line: `It keeps the exported session's settings: ${words(first)}.` };
  }
  const found = each.map((e) => `${e.file}: ${e.settings !== undefined ? words(e.settings) : 'none'}`).join('; ');
  return { line: `The files' manifests do not agree on the settings (${found}): its dice are judged at ${words(FALLBACK_SETTINGS)} unless told otherwise.` };
}

/** The settings an exported session's config holds (a recorded session's stopping rules, or those an import kept). */
function settingsOf(config: unknown): DecisionSettings | undefined {
  if (config === undefined) return undefined;
  const own = sessionSettings(JSON.stringify(config));
  return own.alpha !== undefined && own.delta !== undefined && own.serialAlpha !== undefined ? { alpha: own.alpha, delta: own.delta, serialAlpha: own.serialAlpha } : undefined;
}

function same(a: DecisionSettings, b: DecisionSettings): boolean {
  return a.alpha === b.alpha && a.delta === b.delta && a.serialAlpha === b.serialAlpha;
}

function words(s: DecisionSettings): string {
  return `alpha ${s.alpha}, FAIR_WITHIN margin ±${s.delta}, rig checks at ${s.serialAlpha}`;
}
