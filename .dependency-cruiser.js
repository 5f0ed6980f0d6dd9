// The layer rule, run by `npm test` (`npm run layers`). The order itself lives in
// layers.json; this file only turns it into dependency-cruiser rules.
import { readFileSync } from 'node:fs';

const { layers, siblings, apart } = JSON.parse(readFileSync(new URL('./layers.json', import.meta.url), 'utf8'));

const level = new Map(layers.flatMap((names, i) => names.map((name) => [name, i])));
const names = [...level.keys()];
const any = (list) => `^src/(${list.join('|')})/`;

const forbidden = [
  {
    name: 'no-circular',
    comment: 'No import cycles anywhere in src.',
    severity: 'error',
    from: { path: '^src/' },
    to: { circular: true },
  },
  {
    name: 'declared-layer',
    comment: 'Every source file lives in a folder that layers.json names.',
    severity: 'error',
    from: { path: '^src/', pathNot: any(names) },
    to: {},
  },
  {
    name: 'declared-layer-target',
    comment: 'Nothing imports a source file outside the folders layers.json names.',
    severity: 'error',
    from: { path: '^src/' },
    to: { path: '^src/', pathNot: any(names) },
  },
];
for (const name of names) {
  const mine = level.get(name);
  const allowedSiblings = siblings[name] ?? [];
  const higher = names.filter((other) => level.get(other) > mine);
  const sameLevel = names.filter((other) => other !== name && level.get(other) === mine && !allowedSiblings.includes(other));
  if (higher.length > 0) {
    forbidden.push({
      name: `layer-${name}-imports-higher`,
      comment: `src/${name} is below ${higher.join(', ')} (layers.json).`,
      severity: 'error',
      from: { path: `^src/${name}/` },
      to: { path: any(higher) },
    });
  }
  if ((apart[name] ?? []).length > 0) {
    forbidden.push({
      name: `layer-${name}-imports-apart`,
      comment: `src/${name} keeps apart from ${apart[name].join(', ')} (layers.json apart).`,
      severity: 'error',
      from: { path: `^src/${name}/` },
      to: { path: any(apart[name]) },
    });
  }
  if (sameLevel.length > 0) {
    forbidden.push({
      name: `layer-${name}-imports-sibling`,
      comment: `src/${name} shares its level with ${sameLevel.join(', ')} and does not import them (declare it in layers.json siblings if it must).`,
      severity: 'error',
      from: { path: `^src/${name}/` },
      to: { path: any(sameLevel) },
    });
  }
}

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
