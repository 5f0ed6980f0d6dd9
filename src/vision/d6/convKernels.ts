/**
 * TinyNet's training convolutions in plain TypeScript: the forward pass (3x3, padding 1, bias) and its gradients.
 * Their sums are made in a fixed order in double precision and stored as float32, so the same samples fit the same
 * weights bit for bit on any machine; test/vision/convKernels.test.ts holds them to the plain loops they replaced.
 * They are the reference training's WebAssembly kernel (trainConvsWasm.ts) gives bit for bit, and what it is
 * checked against; the biases' gradient is made here for both.
 * (Inference runs on the WebAssembly kernel, tinyNetWasm.ts.)
 */

/** One 3x3 convolution layer's shape and parameters, as TinyNet holds it. */
export interface ConvLayer {
  readonly cin: number;
  readonly cout: number;
  /** Side of its input (and output before pooling). */
  readonly n: number;
  readonly pool: boolean;
  /** Weights [cout][cin][3][3], then biases [cout]. */
  readonly w: Float32Array;
  readonly b: Float32Array;
  /** Scratch for its input unrolled into patches, by the forward pass and the weight gradients (JS runs one call at a time). */
  readonly patches: Float32Array;
}

/** For the 3x3 kernel tap (ky, kx) on an n x n plane with padding 1: its offset and the output rows/columns it reaches inside the image. */
function kernelTapRange(n: number, ky: number, kx: number): { dy: number; dx: number; ya: number; yb: number; xa: number; xb: number } {
  const dy = ky - 1;
  const dx = kx - 1;
  return { dy, dx, ya: Math.max(0, -dy), yb: Math.min(n, n - dy), xa: Math.max(0, -dx), xb: Math.min(n, n - dx) };
}

/** Unrolls `x` (cin planes n x n) into `l.patches`: one row of k9 = cin x 9 values per output pixel, zeros where the kernel leaves the image. */
function unroll(l: ConvLayer, x: Float32Array): Float32Array {
  const { cin, n } = l;
  const plane = n * n;
  const k9 = cin * 9;
  const patches = l.patches;
  // Every cell is written below: zero the taps the kernel leaves the image on (padding) first.
  patches.fill(0);
  for (let ci = 0; ci < cin; ci++) {
    const xo = ci * plane;
    for (let ky = 0; ky < 3; ky++) {
      for (let kx = 0; kx < 3; kx++) {
        const k = (ci * 3 + ky) * 3 + kx;
        const { dy, dx, ya, yb, xa, xb } = kernelTapRange(n, ky, kx);
        for (let yy = ya; yy < yb; yy++) {
          const xi = xo + (yy + dy) * n + dx;
          for (let xx = xa; xx < xb; xx++) patches[(yy * n + xx) * k9 + k] = x[xi + xx] as number;
        }
      }
    }
  }
  return patches;
}

/**
 * Convolution with padding 1 of `x` (cin planes n x n) into `y` (cout planes),
 * bias included (training's path; inference runs on WasmConvs). The input is
 * first unrolled into patches, so each output is a dot product of two
 * contiguous rows summed in a local variable: four channels of two pixels at
 * a time, each patch value loaded once for the four channels and each weight
 * once for the two pixels.
 * Each output sums its terms in the order bias, then (ci, ky, kx).
 */
export function convForward(l: ConvLayer, x: Float32Array, y: Float32Array): void {
  const { cin, cout, n, w, b } = l;
  const plane = n * n;
  const k9 = cin * 9;
  const patches = unroll(l, x);
  let co = 0;
  for (; co + 4 <= cout; co += 4) {
    const w0 = co * k9;
    const w1 = w0 + k9;
    const w2 = w1 + k9;
    const w3 = w2 + k9;
    const b0 = b[co] as number;
    const b1 = b[co + 1] as number;
    const b2 = b[co + 2] as number;
    const b3 = b[co + 3] as number;
    const y0 = co * plane;
    const y1 = y0 + plane;
    const y2 = y1 + plane;
    const y3 = y2 + plane;
    // Two output pixels at a time: each weight loaded once for the two, eight sums in flight.
    let q = 0;
    for (; q + 2 <= plane; q += 2) {
      const po = q * k9;
      const pp = po + k9;
      let s0 = b0;
      let s1 = b1;
      let s2 = b2;
      let s3 = b3;
      let t0 = b0;
      let t1 = b1;
      let t2 = b2;
      let t3 = b3;
      for (let k = 0; k < k9; k++) {
        const v = patches[po + k] as number;
        const u = patches[pp + k] as number;
        const a0 = w[w0 + k] as number;
        const a1 = w[w1 + k] as number;
        const a2 = w[w2 + k] as number;
        const a3 = w[w3 + k] as number;
        s0 += a0 * v;
        s1 += a1 * v;
        s2 += a2 * v;
        s3 += a3 * v;
        t0 += a0 * u;
        t1 += a1 * u;
        t2 += a2 * u;
        t3 += a3 * u;
      }
      y[y0 + q] = s0;
      y[y1 + q] = s1;
      y[y2 + q] = s2;
      y[y3 + q] = s3;
      y[y0 + q + 1] = t0;
      y[y1 + q + 1] = t1;
      y[y2 + q + 1] = t2;
      y[y3 + q + 1] = t3;
    }
    // An odd plane's last pixel.
    for (; q < plane; q++) {
      for (let c = 0; c < 4; c++) y[y0 + c * plane + q] = dot(b[co + c] as number, w, w0 + c * k9, patches, q * k9, k9);
    }
  }
  // The output channels left over after the groups of four.
  for (; co < cout; co++) {
    for (let q = 0; q < plane; q++) y[co * plane + q] = dot(b[co] as number, w, co * k9, patches, q * k9, k9);
  }
}

/** One output: `bias`, then the k9 products of a weight row and a patch row, summed in that order. */
function dot(bias: number, w: Float32Array, wo: number, patches: Float32Array, po: number, k9: number): number {
  let s = bias;
  for (let k = 0; k < k9; k++) s += (w[wo + k] as number) * (patches[po + k] as number);
  return s;
}

/**
 * Gradients of a convolution: accumulates into gw and gb and (when given) writes gx. The sums are made in the same
 * order and at the same precision as the plain loops over each kernel tap's output pixels, so the same samples fit
 * the same weights bit for bit; they are only faster (see the two parts).
 */
export function convBackward(l: ConvLayer, x: Float32Array, gy: Float32Array, gw: Float32Array, gb: Float32Array, gx: Float32Array | undefined): void {
  biasGradients(l, gy, gb);
  weightGradients(l, x, gy, gw);
  if (gx) inputGradients(l, gy, gx);
}

/** Each bias's gradient: its channel's output gradients summed in double in raster order, then added to gb. */
export function biasGradients(l: ConvLayer, gy: Float32Array, gb: Float32Array): void {
  const plane = l.n * l.n;
  for (let co = 0; co < l.cout; co++) {
    const yo = co * plane;
    let sb = 0;
    for (let i = 0; i < plane; i++) sb += gy[yo + i] as number;
    gb[co] = (gb[co] as number) + sb;
  }
}

/**
 * Each weight's gradient, summed in double over the output pixels in raster order and then added to gw: read from
 * the unrolled input (a padded tap's zero adds nothing), every weight of an output channel in one pass over a
 * contiguous row. Terms whose output gradient is zero (about half: ReLU) are skipped, which leaves every sum as it was.
 */
function weightGradients(l: ConvLayer, x: Float32Array, gy: Float32Array, gw: Float32Array): void {
  const { cout, n } = l;
  const plane = n * n;
  const k9 = l.cin * 9;
  const patches = unroll(l, x);
  const acc = new Float64Array(cout * k9);
  for (let q = 0; q < plane; q++) {
    const po = q * k9;
    for (let co = 0; co < cout; co++) {
      const g = gy[co * plane + q] as number;
      if (g === 0) continue;
      const ao = co * k9;
      for (let k = 0; k < k9; k++) acc[ao + k] = (acc[ao + k] as number) + g * (patches[po + k] as number);
    }
  }
  for (let i = 0; i < acc.length; i++) gw[i] = (gw[i] as number) + (acc[i] as number);
}

/**
 * The input's gradient, scattered from each non-zero output gradient (pooling and ReLU leave most of them zero) to
 * the nine input pixels its taps read, in a copy of gx padded with a ring the border taps may write into. Each input
 * pixel must take its terms in (co, ky, kx) order, rounded to float32 after each (Math.fround, as a store would):
 * within an output channel, the pixel that tap (ky, kx) reaches it from lies (1 - ky, 1 - kx) on, so visiting the
 * output pixels in reverse raster order brings each pixel's terms in that order.
 */
function inputGradients(l: ConvLayer, gy: Float32Array, gx: Float32Array): void {
  const { cin, cout, n, w } = l;
  const plane = n * n;
  const m = n + 2;
  const mm = m * m;
  const f = Math.fround;
  const gp = new Float32Array(cin * mm);
  for (let co = 0; co < cout; co++) {
    const yo = co * plane;
    for (let yy = n - 1; yy >= 0; yy--) {
      for (let xx = n - 1; xx >= 0; xx--) {
        const g = gy[yo + yy * n + xx] as number;
        if (g === 0) continue;
        let p = (yy + 1) * m + xx + 1;
        let wo = co * cin * 9;
        for (let ci = 0; ci < cin; ci++, p += mm, wo += 9) {
          gp[p - m - 1] = f((gp[p - m - 1] as number) + (w[wo] as number) * g);
          gp[p - m] = f((gp[p - m] as number) + (w[wo + 1] as number) * g);
          gp[p - m + 1] = f((gp[p - m + 1] as number) + (w[wo + 2] as number) * g);
          gp[p - 1] = f((gp[p - 1] as number) + (w[wo + 3] as number) * g);
          gp[p] = f((gp[p] as number) + (w[wo + 4] as number) * g);
          gp[p + 1] = f((gp[p + 1] as number) + (w[wo + 5] as number) * g);
          gp[p + m - 1] = f((gp[p + m - 1] as number) + (w[wo + 6] as number) * g);
          gp[p + m] = f((gp[p + m] as number) + (w[wo + 7] as number) * g);
          gp[p + m + 1] = f((gp[p + m + 1] as number) + (w[wo + 8] as number) * g);
        }
      }
    }
  }
  for (let ci = 0; ci < cin; ci++) {
    for (let y = 0; y < n; y++) gx.set(gp.subarray(ci * mm + (y + 1) * m + 1, ci * mm + (y + 1) * m + 1 + n), ci * plane + y * n);
  }
}
