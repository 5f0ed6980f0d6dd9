import { FALLBACK_SETTINGS, sessionSettings } from '../report/storedSessionReport.js';
import type { ImportSource } from '../store/importRolls.js';

export interface DecisionSettings {
  readonly alpha: number;
  readonly delta: number;
  readonly serialAlpha: number;
}

/**
 * The decision settings an import keeps: those of the exported session, when
 * every file's manifest carries them and they agree (a file without a manifest,
 * a manifest without settings, or two sessions run at different settings, leave
 * the defaults), and the line that says which; nothing when no file has a manifest.
 */
export function importSettings(sources: readonly ImportSource[]): { settings?: DecisionSettings; line?: string } {
  if (sources.every((s) => s.manifest === undefined)) return {};
  const each = sources.map((s) => ({ file: s.file, manifest: s.manifest !== undefined, settings: settingsOf(s.manifest?.session['config']) }));
  const first = each[0]?.settings;
  if (first !== undefined && each.every((e) => e.settings !== undefined && same(e.settings, first))) {
    return { settings: first, line: `It keeps the exported session's settings: ${words(first)}.` };
  }
  const defaults = `its dice are judged at ${words(FALLBACK_SETTINGS)} unless told otherwise.`;
  // An export of a session that had none (one imported from plain logs, say) carries none: nothing disagrees.
  if (each.length === 1) return { line: `The manifest of ${sources[0]?.file} names no decision settings (${whyNone(sources[0]?.manifest?.session['config'])}): ${defaults}` };
  const given = each.flatMap((e) => (e.settings !== undefined ? [e.settings] : []));
  const disagree = given.some((g) => !same(g, given[0] as DecisionSettings));
  const found = each.map((e) => `${e.file}: ${e.settings !== undefined ? words(e.settings) : e.manifest ? 'none in its manifest' : 'no manifest'}`).join('; ');
  return { line: `${disagree ? "The files' manifests do not agree on the settings" : "Not every file's manifest names the settings"} (${found}): ${defaults}` };
}

/** The settings an exported session's config holds (a recorded session's stopping rules, or those an import kept). */
function settingsOf(config: unknown): DecisionSettings | undefined {
  if (config === undefined) return undefined;
  const own = sessionSettings(JSON.stringify(config));
  return own.alpha !== undefined && own.delta !== undefined && own.serialAlpha !== undefined ? { alpha: own.alpha, delta: own.delta, serialAlpha: own.serialAlpha } : undefined;
}

/** Why a manifest names no settings: its session was imported without them, or its config is not one this dicerig reads. */
function whyNone(config: unknown): string {
  const imported = typeof config === 'object' && config !== null && 'imported' in config;
  return imported ? 'its session was imported from logs that named none' : "its session's config is not one this dicerig can read";
}

function same(a: DecisionSettings, b: DecisionSettings): boolean {
  return a.alpha === b.alpha && a.delta === b.delta && a.serialAlpha === b.serialAlpha;
}

function words(s: DecisionSettings): string {
  return `alpha ${s.alpha}, FAIR_WITHIN margin ±${s.delta}, rig checks at ${s.serialAlpha}`;
}
