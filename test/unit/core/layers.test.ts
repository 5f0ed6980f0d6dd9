import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The README's architecture section must say what layers.json (the one place dependency-cruiser reads) says. */
interface Layers {
  layers: string[][];
  siblings: Record<string, string[]>;
  apart: Record<string, string[]>;
}

const root = new URL('../../../', import.meta.url);
const layers = JSON.parse(readFileSync(new URL('layers.json', root), 'utf8')) as Layers;
const readme = readFileSync(new URL('README.md', root), 'utf8');
const section = readme.slice(readme.indexOf('### Layers'), readme.indexOf('- `src/core/`'));

describe('README architecture section', () => {
  it('lists the layers of layers.json, highest first, with the same folders on each level', () => {
    const rows = [...section.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)].map((m) => ({
      level: Number(m[1]),
      folders: [...(m[2] ?? '').matchAll(/`([^`]+)`/g)].map((f) => f[1]),
    }));
    expect(rows.map((r) => r.level)).toEqual(layers.layers.map((_, i) => layers.layers.length - i));
    expect(rows.map((r) => r.folders)).toEqual([...layers.layers].reverse());
  });

  it('names every declared sibling import and every kept-apart pair', () => {
    const said = (verb: string) => [...section.matchAll(new RegExp(`^- \`([\\w-]+)\` ${verb} \`([\\w-]+)\``, 'gm'))].map((m) => `${m[1]}>${m[2]}`).sort();
    const pairs = (rule: Record<string, string[]>) => Object.entries(rule).flatMap(([from, tos]) => tos.map((to) => `${from}>${to}`)).sort();
    expect(said('may import')).toEqual(pairs(layers.siblings));
    expect(said('keeps apart from')).toEqual(pairs(layers.apart));
  });

  it('gives every folder of src a layer', () => {
    const folders = layers.layers.flat();
    for (const line of readme.matchAll(/^- `src\/([\w-]+)\/`/gm)) expect(folders).toContain(line[1]);
  });
});
