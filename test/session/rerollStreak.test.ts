import { describe, expect, it } from 'vitest';
import { RerollStreak } from '../../src/session/rerollStreak.js';

describe('the likely cause of throws in a row without a counted result', () => {
  it('names a die size, a camera angle or a lamp low to one side when every throw had a die called cocked', () => {
    const s = new RerollStreak();
    s.add(['cocked']);
    s.add(['cocked', 'extra']);
    s.add(['cocked']);
    expect(s.length).toBe(3);
    expect(s.likelyCause()).toMatch(/^Every one of these throws had a die called cocked.*camera\.dieSizePx.*lamp low to one side.*in perspective with their side faces, is not supported yet\.$/);
  });

  it('names shadows and strays when every throw found an extra blob, and the settle when the dice never came to rest', () => {
    const extra = new RerollStreak();
    extra.add(['extra']);
    extra.add(['extra', 'cocked']);
    expect(extra.likelyCause()).toMatch(/shadow/);
    const moving = new RerollStreak();
    moving.add(['not-settled']);
    expect(moving.likelyCause()).toMatch(/come to rest/);
    const wrong = new RerollStreak();
    wrong.add(['wrong-die']);
    expect(wrong.likelyCause()).toMatch(/channel order/);
  });

  it('names nothing when no problem was in every throw, when the tumbles failed, or when the streak is empty', () => {
    const mixed = new RerollStreak();
    mixed.add(['cocked']);
    mixed.add(['missing']);
    expect(mixed.likelyCause()).toBeUndefined();
    const voids = new RerollStreak();
    voids.add(['void']);
    expect(voids.likelyCause()).toBeUndefined();
    expect(new RerollStreak().likelyCause()).toBeUndefined();
  });

  it('starts again after a counted throw', () => {
    const s = new RerollStreak();
    s.add(['missing']);
    s.clear();
    s.add(['cocked']);
    expect(s.length).toBe(1);
    expect(s.likelyCause()).toMatch(/cocked/);
  });
});
