import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { d6Die, greenDefenseDie, redAttackDie } from '../../src/dice/catalogue.js';
import type { DieType } from '../../src/dice/types.js';
import { bottomFaceReader, bottomFaceTable, mapBottomRead, topSymbolFromBottom } from '../../src/vision/bottomFace.js';
import { parseProfile, sealProfile } from '../../src/vision/calibration/profile.js';
import type { CalibrationProfile } from '../../src/vision/calibration/profile.js';
import { D8Reader } from '../../src/vision/d8/d8Reader.js';
import type { FaceRead, FaceReader } from '../../src/vision/faceRead.js';
import { drawD8, GREEN_STYLE } from './d8Fixtures.js';

const crop = { width: 1, height: 1, data: new Uint8Array(3) };
const read = (symbol: string, extra: Partial<FaceRead> = {}): FaceRead => ({ status: 'read', symbol, confidence: 0.99, classifierVersion: 'test/1', crop, ...extra });

describe('reading the bottom face', () => {
  it('maps every D6 face to the one opposite (they sum to 7)', () => {
    for (let v = 1; v <= 6; v++) expect(topSymbolFromBottom(d6Die, String(v))).toEqual({ symbol: String(7 - v) });
  });

  it('maps the green die where its layout makes the top face certain', () => {
    // Catalogue layout: each evade faces a blank, the two focus faces face each other.
    expect(bottomFaceTable(greenDefenseDie)).toEqual({ evade: { symbol: 'blank' }, focus: { symbol: 'focus' }, blank: { symbol: 'evade' } });
  });

  it('says when a red symbol seen below does not fix the top face', () => {
    // Catalogue layout: hit-1/focus-1, hit-2/focus-2, hit-3/blank-1, crit/blank-2.
    expect(topSymbolFromBottom(redAttackDie, 'crit')).toEqual({ symbol: 'blank' });
    expect(topSymbolFromBottom(redAttackDie, 'focus')).toEqual({ symbol: 'hit' });
    expect(topSymbolFromBottom(redAttackDie, 'hit')).toEqual({ ambiguous: ['blank', 'focus'] });
    expect(topSymbolFromBottom(redAttackDie, 'blank')).toEqual({ ambiguous: ['crit', 'hit'] });
  });

  it('follows a user-defined layout', () => {
    const mine: DieType = { ...redAttackDie, opposite: { 'hit-1': 'blank-1', 'blank-1': 'hit-1', 'hit-2': 'blank-2', 'blank-2': 'hit-2', 'hit-3': 'focus-1', 'focus-1': 'hit-3', crit: 'focus-2', 'focus-2': 'crit' } };
    expect(topSymbolFromBottom(mine, 'blank')).toEqual({ symbol: 'hit' });
    expect(topSymbolFromBottom(mine, 'hit')).toEqual({ ambiguous: ['blank', 'focus'] });
  });

  it('declines an ambiguous read and passes other statuses through', () => {
    const mapped = mapBottomRead(read('hit', { die: 'red' }), redAttackDie);
    expect(mapped.status).toBe('unreadable');
    expect(mapped.reason).toMatch(/blank or focus on top/);
    const cocked: FaceRead = { status: 'cocked', confidence: 1, classifierVersion: 'test/1', crop };
    expect(mapBottomRead(cocked, redAttackDie)).toBe(cocked);
    expect(() => topSymbolFromBottom(d6Die, '7')).toThrow(/no face showing "7"/);
  });

  it('wraps any reader so it reports the top face', () => {
    const inner: FaceReader = { classifierVersion: 'pips/1', read: () => read('2') };
    const reader = bottomFaceReader(inner, () => d6Die);
    expect(reader.classifierVersion).toBe('pips/1 bottom');
    expect(reader.read({ image: crop, sizePx: 1 })).toMatchObject({ status: 'read', symbol: '5', classifierVersion: 'pips/1 bottom' });
  });

  it('reads a green die from below with a profile marked face: bottom', () => {
    const file = fileURLToPath(new URL('../../calibration/default-green.json', import.meta.url));
    const top = parseProfile(JSON.parse(readFileSync(file, 'utf8')), file);
    const { hash: _hash, ...rest } = top;
    const bottom: CalibrationProfile = sealProfile({ ...rest, face: 'bottom' });
    const image = drawD8('evade', 0.7, { style: GREEN_STYLE });
    expect(new D8Reader(top).read({ image, sizePx: 72 })).toMatchObject({ status: 'read', die: 'green', symbol: 'evade' });
    expect(new D8Reader(bottom).read({ image, sizePx: 72 })).toMatchObject({ status: 'read', die: 'green', symbol: 'blank' });
    expect(bottom.hash).not.toBe(top.hash);
  });
});
