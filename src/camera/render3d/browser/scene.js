/* global document, window, Blob, FileReader, performance, atob */
/**
 * Browser side of the 3D synthetic camera: draws a scene described by
 * src/camera/render3d/scene.ts with three.js (PBR plastic, shadow maps, room
 * reflections) and returns the frame's RGBA pixels. Geometry, poses and labels
 * all come from Node; this file only draws (die textures, platforms, lights).
 * It exposes `window.dicerig.setShapes(shapes)` and `window.dicerig.render(spec)`.
 */
import * as THREE from 'three';
import { RoomEnvironment } from 'three/addons/environments/RoomEnvironment.js';
import { applyCamera } from './camera.js';
import { drawIcon } from './icons.js';
import { mulberry } from './random.js';

const TILE = 256;
let renderer;
let envTexture;
const geometries = new Map();
const shapeInfo = new Map();

const css = (c, k = 1, alpha = 1) => `rgba(${c.map((v) => Math.max(0, Math.min(255, Math.round(v * k)))).join(',')},${alpha})`;

function ensureRenderer(width, height) {
  if (renderer && renderer.domElement.width === width && renderer.domElement.height === height) return;
  // Another frame size (a rig scene after a tray scene) resizes the renderer rather than making a new one: a new
  // renderer on the same canvas (the same WebGL context) compiled every shader again, some 10 s on SwiftShader.
  if (renderer) {
    renderer.setSize(width, height, false);
    return;
  }
  const canvas = document.getElementById('frame');
  renderer = new THREE.WebGLRenderer({ canvas, antialias: false, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(width, height, false);
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.type = THREE.PCFShadowMap;
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  renderer.toneMapping = THREE.NeutralToneMapping;
  const pmrem = new THREE.PMREMGenerator(renderer);
  envTexture = pmrem.fromScene(new RoomEnvironment(), 0.04).texture;
  pmrem.dispose();
}

/** Little-endian float32 values sent as base64 (browserRenderer.ts's float32Base64). */
function floats(base64) {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return new Float32Array(bytes.buffer);
}

function setShapes(list) {
  for (const s of list) {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(floats(s.positions), 3));
    g.setAttribute('normal', new THREE.Float32BufferAttribute(floats(s.normals), 3));
    g.setAttribute('uv', new THREE.Float32BufferAttribute(floats(s.uvs), 2));
    geometries.set(s.key, g);
    shapeInfo.set(s.key, s);
  }
}

// ---------- die artwork ----------

const PIPS = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

function drawPips(ctx, symbol, half, look) {
  const pips = PIPS[symbol] ?? [];
  const base = look.pips.radius * half;
  for (const [u, v] of pips) {
    const rad = symbol === '1' ? base * look.pips.oneScale : base;
    ctx.beginPath();
    ctx.arc(u * look.pips.offset * half, v * look.pips.offset * half, rad, 0, Math.PI * 2);
    ctx.fill();
  }
}

/** Marbled plastic (tray look): soft swirls of a second colour through the body. */
function drawMarble(ctx, colour, w, h, rand) {
  ctx.save();
  ctx.lineCap = 'round';
  for (let i = 0; i < 30; i++) {
    ctx.strokeStyle = css(colour, 0.85 + rand() * 0.3, 0.15 + rand() * 0.3);
    ctx.lineWidth = 3 + rand() * 22;
    let x = rand() * w;
    let y = rand() * h;
    ctx.beginPath();
    ctx.moveTo(x, y);
    for (let k = 0; k < 3; k++) {
      const nx = x + (rand() - 0.5) * 160;
      const ny = y + (rand() - 0.5) * 160;
      ctx.quadraticCurveTo(x + (rand() - 0.5) * 120, y + (rand() - 0.5) * 120, nx, ny);
      x = nx;
      y = ny;
    }
    ctx.stroke();
  }
  ctx.restore();
}

/** The texture atlas of one die: body colour everywhere, each face's icon or pips in its tile, worn ink. */
function dieTexture(die) {
  const info = shapeInfo.get(die.shapeKey);
  const look = die.look;
  const rand = mulberry(look.wearSeed);
  const w = TILE * info.atlasCols;
  const h = TILE * info.atlasRows;
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = css(look.body);
  ctx.fillRect(0, 0, w, h);
  // Uneven plastic: soft lighter and darker blotches.
  for (let i = 0; i < 40; i++) {
    const x = rand() * w;
    const y = rand() * h;
    const rr = 10 + rand() * 60;
    const g = ctx.createRadialGradient(x, y, 0, x, y, rr);
    g.addColorStop(0, css(look.body, 1 + (rand() - 0.5) * 4 * look.mottle, 0.6));
    g.addColorStop(1, css(look.body, 1, 0));
    ctx.fillStyle = g;
    ctx.fillRect(x - rr, y - rr, rr * 2, rr * 2);
  }
  if (look.marble) drawMarble(ctx, look.marble, w, h, rand);
  const ink = document.createElement('canvas');
  ink.width = w;
  ink.height = h;
  const ictx = ink.getContext('2d');
  ictx.fillStyle = css(look.ink);
  ictx.strokeStyle = css(look.ink);
  die.slotSymbols.forEach((symbol, slot) => {
    const col = slot % info.atlasCols;
    const row = Math.floor(slot / info.atlasCols);
    const face = (info.faceHalf * TILE) / 2;
    ictx.save();
    ictx.translate(col * TILE + TILE / 2, row * TILE + TILE / 2);
    if (die.shape === 'd6') {
      ictx.rotate((die.slotTurns[slot] * Math.PI) / 2);
      if (look.pips.engraved) {
        ictx.save();
        ictx.fillStyle = css(look.body, 0.55);
        ictx.translate(1.5, 1.5);
        drawPips(ictx, symbol, face, look);
        ictx.restore();
      }
      drawPips(ictx, symbol, face, look);
    } else {
      // The d8 face's inscribed circle has radius face; the icon fills part of it.
      ictx.rotate(look.icon.twist);
      drawIcon(ictx, symbol, face * look.icon.scale, look.icon);
    }
    ictx.restore();
  });
  // Worn paint: scratches and chips taken out of the ink.
  if (look.wear > 0.01) {
    ictx.save();
    ictx.globalCompositeOperation = 'destination-out';
    const chips = Math.round(look.wear * 260);
    for (let i = 0; i < chips; i++) {
      const x = rand() * w;
      const y = rand() * h;
      ictx.fillStyle = `rgba(0,0,0,${0.4 + rand() * 0.6})`;
      ictx.beginPath();
      ictx.ellipse(x, y, 1 + rand() * 7 * look.wear + 1, 1 + rand() * 3, rand() * Math.PI, 0, Math.PI * 2);
      ictx.fill();
    }
    ictx.globalAlpha = look.wear * 0.5;
    ictx.fillRect(0, 0, w, h);
    ictx.restore();
  }
  ctx.globalAlpha = look.inkAlpha;
  ctx.drawImage(ink, 0, 0);
  ctx.globalAlpha = 1;
  const tex = new THREE.CanvasTexture(canvas);
  tex.colorSpace = THREE.SRGBColorSpace;
  tex.flipY = false;
  tex.anisotropy = 4;
  return tex;
}

// ---------- platform ----------

function platformTexture(p) {
  const size = 1024;
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const ctx = canvas.getContext('2d');
  const rand = mulberry(p.textureSeed);
  const c = p.color;
  ctx.fillStyle = css(c);
  ctx.fillRect(0, 0, size, size);
  const t = p.texture;
  const speckle = (n, amp, rMax) => {
    for (let i = 0; i < n; i++) {
      ctx.fillStyle = css(c, 1 + (rand() - 0.5) * amp, 0.5 + rand() * 0.5);
      const rr = 0.5 + rand() * rMax;
      ctx.fillRect(rand() * size, rand() * size, rr, rr);
    }
  };
  switch (p.kind) {
    case 'felt':
      speckle(60000 * t, 0.35, 2.2);
      for (let i = 0; i < 3000 * t; i++) {
        ctx.strokeStyle = css(c, 1 + (rand() - 0.5) * 0.4, 0.35);
        ctx.lineWidth = 0.6;
        const x = rand() * size;
        const y = rand() * size;
        const a = rand() * Math.PI * 2;
        ctx.beginPath();
        ctx.moveTo(x, y);
        ctx.quadraticCurveTo(x + Math.cos(a) * 6, y + Math.sin(a) * 6 + 3, x + Math.cos(a) * 12, y + Math.sin(a) * 12);
        ctx.stroke();
      }
      break;
    case 'neoprene':
      speckle(120000 * t, 0.3, 1.4);
      break;
    case 'acrylic':
      for (let i = 0; i < 300 * t; i++) {
        ctx.strokeStyle = css(c, rand() < 0.5 ? 0.93 : 1.05, 0.4);
        ctx.lineWidth = 0.5 + rand();
        const x = rand() * size;
        const y = rand() * size;
        const a = rand() * Math.PI;
        const l = 10 + rand() * 120;
        ctx.beginPath();
        ctx.moveTo(x, y);
        ctx.lineTo(x + Math.cos(a) * l, y + Math.sin(a) * l);
        ctx.stroke();
      }
      break;
    case 'wood': {
      const phase = rand() * 10;
      for (let y = 0; y < size; y++) {
        const v = Math.sin(y * 0.05 + Math.sin(y * 0.011 + phase) * 3) * 0.5 + Math.sin(y * 0.21 + phase) * 0.2;
        ctx.fillStyle = css(c, 1 + v * 0.18 * t, 1);
        ctx.fillRect(0, y, size, 1);
      }
      speckle(20000 * t, 0.2, 1.5);
      for (let i = 0; i < 400 * t; i++) {
        ctx.fillStyle = css(c, 0.8, 0.25);
        ctx.fillRect(rand() * size, rand() * size, 8 + rand() * 60, 1);
      }
      break;
    }
    case 'cork':
      for (let i = 0; i < 26000 * t; i++) {
        ctx.fillStyle = css(c, 0.7 + rand() * 0.55, 0.8);
        ctx.beginPath();
        ctx.arc(rand() * size, rand() * size, 0.8 + rand() * 3.2, 0, Math.PI * 2);
        ctx.fill();
      }
      break;
    case 'fabric': {
      const step = 4;
      for (let y = 0; y < size; y += step) {
        for (let x = 0; x < size; x += step) {
          const odd = ((x + y) / step) % 2 === 0;
          ctx.fillStyle = css(c, odd ? 1 + 0.12 * t : 1 - 0.12 * t, 1);
          ctx.fillRect(x, y, step, step);
        }
      }
      speckle(20000 * t, 0.2, 1.5);
      break;
    }
    case 'mat': {
      // A printed play mat: soft nebula blobs and stars.
      for (let i = 0; i < 14; i++) {
        const x = rand() * size;
        const y = rand() * size;
        const rr = 80 + rand() * 260;
        const g = ctx.createRadialGradient(x, y, 0, x, y, rr);
        const hue = [rand() * 255, rand() * 255, rand() * 255];
        g.addColorStop(0, `rgba(${hue.map(Math.round).join(',')},${0.25 * t})`);
        g.addColorStop(1, 'rgba(0,0,0,0)');
        ctx.fillStyle = g;
        ctx.fillRect(x - rr, y - rr, rr * 2, rr * 2);
      }
      for (let i = 0; i < 1500 * t; i++) {
        ctx.fillStyle = `rgba(255,255,255,${0.3 + rand() * 0.7})`;
        ctx.fillRect(rand() * size, rand() * size, 1 + rand() * 1.5, 1 + rand() * 1.5);
      }
      break;
    }
    default:
      break;
  }
  const tex = new THREE.CanvasTexture(canvas);
  tex.colorSpace = THREE.SRGBColorSpace;
  tex.wrapS = THREE.RepeatWrapping;
  tex.wrapT = THREE.RepeatWrapping;
  tex.anisotropy = 8;
  return tex;
}

let contactTexture;
function contactShadowTexture() {
  if (contactTexture) return contactTexture;
  const c = document.createElement('canvas');
  c.width = 128;
  c.height = 128;
  const ctx = c.getContext('2d');
  const g = ctx.createRadialGradient(64, 64, 0, 64, 64, 64);
  g.addColorStop(0, 'rgba(0,0,0,1)');
  g.addColorStop(0.55, 'rgba(0,0,0,0.55)');
  g.addColorStop(1, 'rgba(0,0,0,0)');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, 128, 128);
  contactTexture = new THREE.CanvasTexture(c);
  return contactTexture;
}

// ---------- scene ----------

const rgb = (c) => new THREE.Color().setRGB(c[0] / 255, c[1] / 255, c[2] / 255, THREE.SRGBColorSpace);

function addLight(scene, spec, spread) {
  const color = new THREE.Color().setRGB(spec.color[0], spec.color[1], spec.color[2], THREE.SRGBColorSpace);
  let light;
  if (spec.kind === 'spot') {
    light = new THREE.SpotLight(color, spec.intensity, 0, 0.75, 0.65, 0);
    light.shadow.camera.near = 5;
    light.shadow.camera.far = 200;
  } else {
    light = new THREE.DirectionalLight(color, spec.intensity);
    const cam = light.shadow.camera;
    cam.left = -spread;
    cam.right = spread;
    cam.top = spread;
    cam.bottom = -spread;
    cam.near = 1;
    cam.far = 300;
  }
  light.position.set(...spec.position);
  light.target.position.set(...spec.target);
  light.castShadow = true;
  light.shadow.mapSize.set(spec.mapSize, spec.mapSize);
  light.shadow.radius = spec.softness;
  light.shadow.bias = -0.0004;
  light.shadow.normalBias = 0.01;
  scene.add(light);
  scene.add(light.target);
}

function buildScene(spec) {
  const scene = new THREE.Scene();
  const disposables = [];
  // Room reflections on the dice only: on the whole platform they cost SwiftShader ~40 % of a frame.
  const view = 2 * spec.camera.heightCm * Math.tan((spec.camera.renderHfovDeg * Math.PI) / 360);

  const ptex = platformTexture(spec.platform);
  const texCm = 14 + (spec.platform.textureSeed % 1000) / 100;
  ptex.repeat.set(200 / texCm, 200 / texCm);
  const pmat = new THREE.MeshStandardMaterial({ map: ptex, roughness: spec.platform.roughness, metalness: 0 });
  const pgeo = new THREE.PlaneGeometry(200, 200);
  const plane = new THREE.Mesh(pgeo, pmat);
  plane.rotation.x = -Math.PI / 2;
  plane.position.set(spec.platform.center[0], 0, spec.platform.center[2]);
  plane.receiveShadow = true;
  scene.add(plane);
  disposables.push(ptex, pmat, pgeo);

  const wmat = new THREE.MeshStandardMaterial({ color: rgb(spec.walls.color), roughness: spec.walls.roughness });
  disposables.push(wmat);
  for (const w of spec.walls.boxes) {
    const g = new THREE.BoxGeometry(...w.size);
    const m = new THREE.Mesh(g, wmat);
    m.position.set(...w.center);
    m.castShadow = true;
    m.receiveShadow = true;
    scene.add(m);
    disposables.push(g);
  }

  const contactMat = new THREE.MeshBasicMaterial({ map: contactShadowTexture(), transparent: true, opacity: 0.45, depthWrite: false, color: 0x000000 });
  const contactGeo = new THREE.PlaneGeometry(1, 1);
  disposables.push(contactMat, contactGeo);
  for (const die of spec.placed) {
    const tex = dieTexture(die);
    const mat = new THREE.MeshPhysicalMaterial({
      map: tex,
      roughness: die.look.roughness,
      metalness: 0,
      clearcoat: die.look.clearcoat,
      clearcoatRoughness: 0.08 + die.look.roughness * 0.3,
      envMap: envTexture,
      envMapIntensity: spec.lights.environment,
      // Translucent plastic (tray look): light scattered inside makes the body glow in its own colour.
      ...(die.look.translucent ? { emissive: rgb(die.look.body), emissiveIntensity: die.look.translucent * 0.2 } : {}),
    });
    disposables.push(tex, mat);
    const mesh = new THREE.Mesh(geometries.get(die.shapeKey), mat);
    const half = die.sizeCm / 2;
    const r = die.rotation;
    mesh.matrixAutoUpdate = false;
    mesh.matrix.set(r[0] * half, r[1] * half, r[2] * half, die.position[0], r[3] * half, r[4] * half, r[5] * half, die.position[1], r[6] * half, r[7] * half, r[8] * half, die.position[2], 0, 0, 0, 1);
    mesh.castShadow = true;
    mesh.receiveShadow = true;
    scene.add(mesh);
    const contact = new THREE.Mesh(contactGeo, contactMat);
    contact.rotation.x = -Math.PI / 2;
    contact.position.set(die.position[0], 0.005, die.position[2]);
    contact.scale.set(die.sizeCm * 1.25, die.sizeCm * 1.25, 1);
    contact.renderOrder = 1;
    scene.add(contact);
  }

  addLight(scene, spec.lights.key, view * 1.2 + 10);
  if (spec.lights.second) addLight(scene, spec.lights.second, view * 1.2 + 10);
  const hemi = spec.lights.hemisphere;
  scene.add(new THREE.HemisphereLight(new THREE.Color().setRGB(...hemi.sky, THREE.SRGBColorSpace), new THREE.Color().setRGB(...hemi.ground, THREE.SRGBColorSpace), hemi.intensity));

  const vfov = (2 * Math.atan(Math.tan((spec.camera.renderHfovDeg * Math.PI) / 360) * (spec.height / spec.width)) * 180) / Math.PI;
  const camera = new THREE.PerspectiveCamera(vfov, spec.width / spec.height, 1, 500);
  camera.position.set(...spec.camera.position);
  camera.up.set(...spec.camera.up);
  camera.lookAt(...spec.camera.target);
  return { scene, camera, disposables };
}

function encode(canvas, type, quality) {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => {
      if (!blob) {
        reject(new Error(`the canvas could not be encoded as ${type}`));
        return;
      }
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result).slice(String(reader.result).indexOf(',') + 1));
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(blob);
    }, type, quality);
  });
}

/** The canvas's pixels as base64 RGB bytes, rows top first: one read-back, no image encoding on either side. */
function rawPixels(gl, width, height) {
  const rgba = new Uint8Array(width * height * 4);
  gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, rgba);
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    // GL's rows run bottom first.
    const from = (height - 1 - y) * width * 4;
    const to = y * width * 3;
    for (let x = 0; x < width; x++) {
      rgb[to + x * 3] = rgba[from + x * 4];
      rgb[to + x * 3 + 1] = rgba[from + x * 4 + 1];
      rgb[to + x * 3 + 2] = rgba[from + x * 4 + 2];
    }
  }
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).slice(String(reader.result).indexOf(',') + 1));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(new Blob([rgb]));
  });
}

/**
 * Renders one scene through the camera model; resolves to the encoded image,
 * base64: JPEG at the scene's quality, PNG (lossless, for checks), or `raw` RGB
 * bytes (lossless, for checks that want pixels: no PNG to encode and decode).
 */
async function render(spec, format = 'jpeg') {
  const t0 = performance.now();
  ensureRenderer(spec.width, spec.height);
  const { scene, camera, disposables } = buildScene(spec);
  const t1 = performance.now();
  renderer.toneMappingExposure = spec.lights.exposure;
  renderer.render(scene, camera);
  applyCamera(renderer, spec);
  // Reading one pixel waits for the frame (SwiftShader draws lazily), so the timings say where time goes.
  const gl = renderer.getContext();
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
  const t2 = performance.now();
  for (const d of disposables) d.dispose();
  scene.traverse((o) => {
    if (o.isLight && o.shadow && o.shadow.map) o.shadow.map.dispose();
  });
  const encoded = format === 'raw' ? await rawPixels(gl, spec.width, spec.height) : await encode(renderer.domElement, format === 'png' ? 'image/png' : 'image/jpeg', spec.post.jpegQuality / 100);
  timings.build = t1 - t0;
  timings.draw = t2 - t1;
  timings.encode = performance.now() - t2;
  return encoded;
}

const timings = {};
window.dicerig = { setShapes, render, timings, ready: true };
