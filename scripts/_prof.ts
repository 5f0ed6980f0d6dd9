import { writeFileSync } from 'node:fs';
import { BrowserRenderer } from '../src/camera/render3d/browserRenderer.js';
import { buildScene } from '../src/camera/render3d/scene.js';
let t = Date.now();
const lap = (s: string) => { const n = Date.now(); console.log(s, n - t, 'ms'); t = n; };
const r = await BrowserRenderer.open(); lap('open');
for (let seed = Number(process.argv[2] ?? 10); seed < Number(process.argv[2] ?? 10) + Number(process.argv[3] ?? 4); seed++) {
  const sc = buildScene({ seed, dice: (process.argv[4] ?? 'xwing') as 'xwing' });
  const spec = process.env.NOPOST ? { ...sc.spec, post: { ...sc.spec.post, blurSigma: 0, motionPx: 0 } } : sc.spec; const img = await r.render(spec); lap('render'); console.log(await r.lastTimings());
  writeFileSync(`/tmp/r3d/s${seed}.jpg`, img);
}
await r.close();
