/**
 * The webcam's optics and sensor, as one full-frame shader pass over the ideal
 * rendered frame: radial lens distortion (the model of src/camera/render3d/lens.ts,
 * which the labels use: an output point q samples the ideal point
 * q (1 + k1 |q|^2 + k2 |q|^4), in units of the focal length, from a frame
 * rendered `scale` times wider), camera-shake motion blur, defocus, vignetting,
 * white-balance error and sensor noise (read plus shot noise, per channel,
 * from a hash of pixel and seed, so the same seed gives the same noise).
 */
import * as THREE from 'three';

const vertexShader = /* glsl */ `
out vec2 vUv;
void main() {
  vUv = uv;
  gl_Position = vec4(position.xy, 0.0, 1.0);
}`;

const fragmentShader = /* glsl */ `
precision highp float;
precision highp int;
uniform sampler2D src;
uniform vec2 size;
uniform float focal;
uniform float scale;
uniform float k1;
uniform float k2;
uniform vec2 motion;
uniform int motionTaps;
uniform float blurSigma;
uniform float vignette;
uniform vec3 gains;
uniform float readNoise;
uniform float shotNoise;
uniform uint seed;
in vec2 vUv;
layout(location = 0) out highp vec4 outColor;

uint hash(uvec3 v) {
  uint h = v.x * 0x8da6b343u ^ v.y * 0xd8163841u ^ v.z * 0xcb1ab31fu;
  h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15; h *= 0x846ca68bu; h ^= h >> 16;
  return h;
}
float unit(uint h) { return (float(h >> 8) + 0.5) / 16777216.0; }

vec3 fetch(vec2 topLeftPx) {
  vec2 uv = vec2(topLeftPx.x / size.x, 1.0 - topLeftPx.y / size.y);
  return texture(src, uv).rgb;
}

void main() {
  vec2 px = vec2(gl_FragCoord.x, size.y - gl_FragCoord.y);
  vec2 q = (px - size * 0.5) / focal;
  float r2 = dot(q, q);
  vec2 p = q * (1.0 + k1 * r2 + k2 * r2 * r2) / scale;
  vec2 srcPx = size * 0.5 + p * focal;
  vec3 acc = vec3(0.0);
  float wsum = 0.0;
  for (int t = 0; t < 6; t++) {
    if (t >= motionTaps) break;
    float k = motionTaps == 1 ? 0.0 : float(t) / float(motionTaps - 1) - 0.5;
    vec2 c = srcPx + k * motion;
    if (blurSigma > 0.05) {
      for (int j = -1; j <= 1; j++) {
        for (int i = -1; i <= 1; i++) {
          float w = exp(-float(i * i + j * j) * 0.72);
          acc += w * fetch(c + vec2(float(i), float(j)) * blurSigma * 1.2);
          wsum += w;
        }
      }
    } else {
      acc += fetch(c);
      wsum += 1.0;
    }
  }
  vec3 colour = acc / wsum * 255.0;
  vec2 d = (px - size * 0.5) / (size * 0.5);
  float vig = 1.0 - vignette * dot(d * size * 0.5, d * size * 0.5) / dot(size * 0.5, size * 0.5);
  colour *= vig * gains;
  uvec2 ip = uvec2(px);
  for (int ch = 0; ch < 3; ch++) {
    uint h1 = hash(uvec3(ip.x, ip.y, seed * 3u + uint(ch)));
    uint h2 = hash(uvec3(ip.y, ip.x, seed * 7u + uint(ch) + 101u));
    float gauss = sqrt(-2.0 * log(unit(h1))) * cos(6.2831853 * unit(h2));
    colour[ch] += gauss * sqrt(readNoise * readNoise + shotNoise * max(0.0, colour[ch]));
  }
  outColor = vec4(clamp(floor(colour + 0.5), 0.0, 255.0) / 255.0, 1.0);
}`;

let state;

/** Applies the camera model to what the renderer just drew to its canvas, drawing the result to the canvas. */
export function applyCamera(renderer, spec) {
  const { width, height } = spec;
  if (!state || state.width !== width || state.height !== height) {
    if (state) {
      state.frame.dispose();
      state.material.dispose();
      state.quad.geometry.dispose();
    }
    const frame = new THREE.FramebufferTexture(width, height);
    frame.minFilter = THREE.LinearFilter;
    frame.magFilter = THREE.LinearFilter;
    const material = new THREE.ShaderMaterial({
      glslVersion: THREE.GLSL3,
      vertexShader,
      fragmentShader,
      depthTest: false,
      depthWrite: false,
      toneMapped: false,
      uniforms: {
        src: { value: frame },
        size: { value: new THREE.Vector2(width, height) },
        focal: { value: 1 },
        scale: { value: 1 },
        k1: { value: 0 },
        k2: { value: 0 },
        motion: { value: new THREE.Vector2() },
        motionTaps: { value: 1 },
        blurSigma: { value: 0 },
        vignette: { value: 0 },
        gains: { value: new THREE.Vector3(1, 1, 1) },
        readNoise: { value: 0 },
        shotNoise: { value: 0 },
        seed: { value: 0 },
      },
    });
    const quad = new THREE.Mesh(new THREE.PlaneGeometry(2, 2), material);
    quad.frustumCulled = false;
    const scene = new THREE.Scene();
    scene.add(quad);
    state = { width, height, frame, material, quad, scene, camera: new THREE.OrthographicCamera(-1, 1, 1, -1, 0, 1) };
  }
  const u = state.material.uniforms;
  const lens = spec.lens;
  const post = spec.post;
  u.focal.value = width / 2 / Math.tan((lens.hfovDeg * Math.PI) / 360);
  u.scale.value = Math.tan((spec.camera.renderHfovDeg * Math.PI) / 360) / Math.tan((lens.hfovDeg * Math.PI) / 360);
  u.k1.value = lens.k1;
  u.k2.value = lens.k2;
  u.motion.value.set(Math.cos(post.motionAngle) * post.motionPx, Math.sin(post.motionAngle) * post.motionPx);
  u.motionTaps.value = post.motionPx > 0.3 ? Math.min(6, Math.max(2, Math.ceil(post.motionPx * 1.5))) : 1;
  u.blurSigma.value = post.blurSigma;
  u.vignette.value = post.vignette;
  u.gains.value.set(...post.gains);
  u.readNoise.value = post.readNoise;
  u.shotNoise.value = post.shotNoise;
  u.seed.value = post.noiseSeed >>> 0;
  renderer.copyFramebufferToTexture(state.frame);
  const toneMapping = renderer.toneMapping;
  renderer.toneMapping = THREE.NoToneMapping;
  renderer.render(state.scene, state.camera);
  renderer.toneMapping = toneMapping;
}
