import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface PinEntry {
  name: string;
  pin: string;
}

describe('hardware/README.md', () => {
  it('lists every pin of the shared pin map with its name, and no pin the map lacks', () => {
    const table = JSON.parse(readFileSync('firmware/protocol/protocol.json', 'utf8')) as { pins: PinEntry[] };
    const doc = readFileSync('hardware/README.md', 'utf8');
    const rows = [...doc.matchAll(/^\| (D\d+|A\d+) \| (\w+) \|/gm)].map((m) => ({ pin: m[1], name: m[2] }));
    expect(rows).toEqual(table.pins.map((p) => ({ pin: p.pin, name: p.name })));
  });
});
