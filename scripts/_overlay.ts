import { writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { BrowserRenderer } from '../src/camera/render3d/browserRenderer.js';
import { buildScene } from '../src/camera/render3d/scene.js';
const r = await BrowserRenderer.open();
for (const seed of process.argv.slice(3).map(Number)) {
  const sc = buildScene({ seed, dice: process.argv[2] as 'xwing' });
  const img = await r.render(sc.spec, 'png');
  const svg = `<svg width="1280" height="720" xmlns="http://www.w3.org/2000/svg">${sc.truth.map((t) => `<rect x="${t.box.x}" y="${t.box.y}" width="${t.box.width}" height="${t.box.height}" fill="none" stroke="yellow" stroke-width="1"/><polygon points="${t.topPolygon.map((p) => p.join(',')).join(' ')}" fill="none" stroke="cyan" stroke-width="1"/><circle cx="${t.topCenter[0]}" cy="${t.topCenter[1]}" r="2" fill="magenta"/><text x="${t.box.x}" y="${t.box.y - 3}" fill="yellow" font-size="13">${t.className} ${t.topFaceId}</text>`).join('')}</svg>`;
  await sharp(img).composite([{ input: Buffer.from(svg) }]).png().toFile(`/tmp/r3d/o${seed}.png`);
  writeFileSync(`/tmp/r3d/o${seed}.json`, JSON.stringify(sc.truth, null, 1));
}
await r.close();
