import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { generatedFiles } from '../../scripts/hardware/generatedFiles.js';
import { PROTOCOL_FILE, wiringSvg } from '../../scripts/hardware/wiringDiagram.js';
import type { ProtocolTable } from '../../scripts/hardware/wiringDiagram.js';

const protocol = JSON.parse(readFileSync(PROTOCOL_FILE, 'utf8')) as ProtocolTable;

describe('the files generated from presets.json and protocol.json', () => {
  for (const [path, text] of Object.entries(generatedFiles())) {
    it(`keeps ${path} up to date (run npx tsx scripts/hardware/generate.ts)`, () => {
      expect(readFileSync(path, 'utf8')).toBe(text);
    });
  }
});

describe('the wiring diagram', () => {
  const svg = wiringSvg(protocol);

  it('draws every pin of protocol.json, in its order, with its name and role, and no other pin', () => {
    const drawn = [...svg.matchAll(/<g class="pin" data-pin="([^"]+)" data-name="([^"]+)">/g)].map((m) => ({ pin: m[1], name: m[2] }));
    expect(drawn).toEqual(protocol.pins.map((p) => ({ pin: p.pin, name: p.name })));
    for (const p of protocol.pins) {
      expect(svg).toContain(`>${p.pin}</text>`);
      expect(svg).toContain(`>${p.role.replace(/&/g, '&amp;')}</text>`);
    }
  });

  it('draws a pin it has no part for, with the role the table gives it', () => {
    const extra = { ...protocol, pins: [...protocol.pins, { name: 'buzzer', pin: 'D7', arduino: 7, role: 'piezo buzzer, active high' }] };
    const drawn = wiringSvg(extra);
    expect(drawn).toContain('data-pin="D7" data-name="buzzer"');
    expect(drawn).toContain('>piezo buzzer, active high</text>');
  });

  it('renders to a picture with the wires drawn (an SVG renderer parses it)', async () => {
    const { data, info } = await sharp(Buffer.from(svg)).raw().toBuffer({ resolveWithObject: true });
    expect(info.width).toBe(1120);
    // Count the wires' red pixels: one line per pin, 350 px long, 2 px wide.
    let red = 0;
    for (let i = 0; i < data.length; i += info.channels) if ((data[i] as number) > 150 && (data[i + 1] as number) < 90 && (data[i + 2] as number) < 90) red++;
    expect(red).toBeGreaterThan(protocol.pins.length * 300);
  });
});
