import { buildScene } from '../src/camera/render3d/scene.js';
let t = Date.now();
buildScene({ seed: 1, dice: 'xwing' }); buildScene({ seed: 2, dice: 'd6' });
console.log('first', Date.now() - t); t = Date.now();
for (let i = 0; i < 20; i++) buildScene({ seed: 100 + i, dice: 'xwing' });
console.log('20 scenes', Date.now() - t);
