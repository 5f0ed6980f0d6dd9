/**
 * The X-Wing icons drawn on a die's texture (canvas 2D, centred at the origin,
 * radius k): the house artwork in three glyph variants, which the reader is
 * trained on, three foreign artworks it never sees in training, and random
 * artwork, every die its own drawings, for training only (see look.ts).
 */
import { mulberry } from './random.js';

/** A circle of radius r at (x, y), filled (or outlined). */
function disc(ctx, r, x = 0, y = 0, outline = false) {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
  if (outline) ctx.stroke();
  else ctx.fill();
}

/** A straight stroke from (x0, y0) to (x1, y1). */
function segment(ctx, x0, y0, x1, y1) {
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.stroke();
}

/** A round hole of radius r at (x, y) through the ink already drawn (the die's body shows through). */
function hole(ctx, r, x = 0, y = 0) {
  ctx.save();
  ctx.globalCompositeOperation = 'destination-out';
  disc(ctx, r, x, y);
  ctx.restore();
}

/** An eye's outline (a new subpath): two lids of height h meeting at (-k, 0) and (k, 0). */
function almond(ctx, k, h) {
  ctx.moveTo(-k, 0);
  ctx.quadraticCurveTo(0, -h * 1.6, k, 0);
  ctx.quadraticCurveTo(0, h * 1.6, -k, 0);
  ctx.closePath();
}

function burst(ctx, k, spikes, inner, jag) {
  ctx.beginPath();
  for (let i = 0; i < spikes * 2; i++) {
    const a = (i * Math.PI) / spikes;
    const long = i % 2 === 0;
    const rr = long ? k * (jag && i % 4 === 0 ? 0.78 : 1) : k * inner;
    const x = rr * Math.sin(a);
    const y = -rr * Math.cos(a);
    if (i === 0) ctx.moveTo(x, y);
    else ctx.lineTo(x, y);
  }
  ctx.closePath();
}

export function drawIcon(ctx, symbol, k, art) {
  const lw = Math.max(1.5, k * 0.14 * art.stroke);
  ctx.lineWidth = lw;
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  if (art.family === 'foreign-1') return drawForeign1(ctx, symbol, k);
  if (art.family === 'foreign-2') return drawForeign2(ctx, symbol, k, art);
  if (art.family === 'foreign-3') return drawForeign3(ctx, symbol, k, art);
  if (art.family === 'random') return drawRandom(ctx, symbol, k, art);
  switch (symbol) {
    case 'hit': {
      burst(ctx, k, art.spikes, art.inner, art.variant === 1);
      ctx.fill();
      if (art.variant === 2) {
        hole(ctx, k * art.inner * 0.45);
      }
      return;
    }
    case 'crit': {
      // An outlined burst around a small filled one: unlike the hit's single solid burst.
      burst(ctx, k, Math.max(5, art.spikes - 2), Math.min(0.6, art.inner + 0.1), false);
      ctx.stroke();
      burst(ctx, k * 0.48, art.variant === 0 ? 4 : Math.max(5, art.spikes - 2), 0.4, false);
      ctx.fill();
      if (art.variant === 2) {
        disc(ctx, k * 1.08, 0, 0, true);
      }
      return;
    }
    case 'focus': {
      ctx.beginPath();
      almond(ctx, k, k * (art.variant === 1 ? 0.75 : 0.6));
      if (art.variant === 2) {
        ctx.fill();
        hole(ctx, k * 0.42);
        disc(ctx, k * 0.24);
      } else {
        ctx.stroke();
        disc(ctx, k * (art.variant === 1 ? 0.36 : 0.3));
      }
      return;
    }
    case 'evade': {
      // Curved swooshes, like a ship rolling aside.
      const n = art.variant === 1 ? 2 : 3;
      for (let i = 0; i < n; i++) {
        const off = (i - (n - 1) / 2) * k * 0.55;
        ctx.beginPath();
        ctx.moveTo(-k * 0.9, off + k * 0.35);
        ctx.quadraticCurveTo(0, off - k * 0.55, k * 0.9, off + k * 0.1);
        ctx.stroke();
      }
      if (art.variant === 2) {
        ctx.beginPath();
        ctx.moveTo(k * 0.95, -k * 0.45);
        ctx.lineTo(k * 1.05, k * 0.05);
        ctx.lineTo(k * 0.55, -k * 0.05);
        ctx.closePath();
        ctx.fill();
      }
      return;
    }
    default:
      return; // blank
  }
}

// Foreign artwork: drawn unlike the house icons, never trained or tuned on (see look.ts).

/** A star of `points` long and short tips, alternating radii `k` and `k * inner`, rotated by `turn`. */
function star(ctx, k, points, inner, turn) {
  ctx.beginPath();
  for (let i = 0; i < points * 2; i++) {
    const a = turn + (i * Math.PI) / points;
    const rr = i % 2 === 0 ? k : k * inner;
    if (i === 0) ctx.moveTo(rr * Math.sin(a), -rr * Math.cos(a));
    else ctx.lineTo(rr * Math.sin(a), -rr * Math.cos(a));
  }
  ctx.closePath();
}

function arrowHead(ctx, x, y, angle, size) {
  ctx.beginPath();
  ctx.moveTo(x + size * Math.cos(angle), y + size * Math.sin(angle));
  ctx.lineTo(x + size * 0.8 * Math.cos(angle + 2.3), y + size * 0.8 * Math.sin(angle + 2.3));
  ctx.lineTo(x + size * 0.8 * Math.cos(angle - 2.3), y + size * 0.8 * Math.sin(angle - 2.3));
  ctx.closePath();
  ctx.fill();
}

/** foreign-1: sparkle stars, a lidded eye with lashes, one curved arrow. */
function drawForeign1(ctx, symbol, k) {
  switch (symbol) {
    case 'hit': {
      // Two four-pointed sparkles, one turned by 45 degrees: eight tips of two lengths, solid.
      star(ctx, k, 4, 0.28, 0);
      ctx.fill();
      star(ctx, k * 0.62, 4, 0.4, Math.PI / 4);
      ctx.fill();
      return;
    }
    case 'crit': {
      // The same sparkle outlined, a solid disc in its heart.
      star(ctx, k, 4, 0.34, 0);
      ctx.stroke();
      disc(ctx, k * 0.26);
      return;
    }
    case 'focus': {
      // Open lids (two arcs), a solid iris with a light glint, three lashes.
      const h = k * 0.55;
      ctx.beginPath();
      ctx.moveTo(-k, 0);
      ctx.quadraticCurveTo(0, -h * 1.7, k, 0);
      ctx.moveTo(-k, 0);
      ctx.quadraticCurveTo(0, h * 1.7, k, 0);
      ctx.stroke();
      disc(ctx, k * 0.34);
      hole(ctx, k * 0.1, k * 0.1, -k * 0.1);
      for (const x of [-0.45, 0, 0.45]) segment(ctx, x * k, -h * 0.95, x * k * 1.25, -h * 1.45);
      return;
    }
    case 'evade': {
      // One thick arc sweeping aside, ending in an arrowhead.
      ctx.save();
      ctx.lineWidth *= 1.3;
      ctx.beginPath();
      ctx.arc(0, k * 0.55, k * 0.95, Math.PI * 1.1, Math.PI * 1.82);
      ctx.stroke();
      ctx.restore();
      const end = Math.PI * 1.82;
      arrowHead(ctx, k * 0.95 * Math.cos(end), k * 0.55 + k * 0.95 * Math.sin(end), end + Math.PI / 2, k * 0.42);
      return;
    }
    default:
      return;
  }
}

/** foreign-2: rayed bursts, a ringed eye, a double chevron swoosh. */
function drawForeign2(ctx, symbol, k, art) {
  switch (symbol) {
    case 'hit': {
      // Rays from a solid centre, no outline.
      const n = art.spikes + 2;
      for (let i = 0; i < n; i++) {
        const a = (i * 2 * Math.PI) / n;
        const r0 = k * 0.32;
        const r1 = k * (i % 2 === 0 ? 1 : 0.75);
        segment(ctx, r0 * Math.sin(a), -r0 * Math.cos(a), r1 * Math.sin(a), -r1 * Math.cos(a));
      }
      disc(ctx, k * 0.36);
      return;
    }
    case 'crit': {
      // A solid burst inside a ring, a hole at its centre.
      disc(ctx, k, 0, 0, true);
      star(ctx, k * 0.78, art.spikes, 0.5, 0);
      ctx.fill();
      hole(ctx, k * 0.2);
      return;
    }
    case 'focus': {
      // An outlined almond with a ring for an iris and a dot for a pupil.
      const h = k * 0.62;
      ctx.beginPath();
      ctx.moveTo(-k, 0);
      ctx.bezierCurveTo(-k * 0.4, -h * 1.2, k * 0.4, -h * 1.2, k, 0);
      ctx.bezierCurveTo(k * 0.4, h * 1.2, -k * 0.4, h * 1.2, -k, 0);
      ctx.closePath();
      ctx.stroke();
      disc(ctx, k * 0.36, 0, 0, true);
      disc(ctx, k * 0.12);
      return;
    }
    case 'evade': {
      // Two bent chevrons pointing the same way.
      for (const dx of [-0.38, 0.32]) {
        ctx.beginPath();
        ctx.moveTo((dx - 0.35) * k, -0.7 * k);
        ctx.quadraticCurveTo((dx + 0.15) * k, -0.2 * k, (dx + 0.45) * k, 0);
        ctx.quadraticCurveTo((dx + 0.15) * k, 0.2 * k, (dx - 0.35) * k, 0.7 * k);
        ctx.stroke();
      }
      return;
    }
    default:
      return;
  }
}

/** A ring of `n` triangular shards pointing outwards from radius `r0` to `k`, each `width` radians wide at its base. */
function shards(ctx, k, n, r0, width) {
  ctx.beginPath();
  for (let i = 0; i < n; i++) {
    const a = (i * 2 * Math.PI) / n;
    ctx.moveTo(r0 * Math.sin(a - width), -r0 * Math.cos(a - width));
    ctx.lineTo(k * Math.sin(a), -k * Math.cos(a));
    ctx.lineTo(r0 * Math.sin(a + width), -r0 * Math.cos(a + width));
    ctx.closePath();
  }
}

/** foreign-3: a ring of loose shards, a lens with a slit pupil, speed lines behind a ball. */
function drawForeign3(ctx, symbol, k, art) {
  const n = Math.max(6, art.spikes);
  switch (symbol) {
    case 'hit': {
      // Shards around an empty centre, solid.
      shards(ctx, k, n, k * 0.3, 0.2);
      ctx.fill();
      return;
    }
    case 'crit': {
      // The shards outlined, a solid diamond at the centre.
      ctx.save();
      ctx.lineWidth *= 0.7;
      shards(ctx, k, n, k * 0.42, 0.16);
      ctx.stroke();
      ctx.restore();
      const d = k * 0.3;
      ctx.beginPath();
      ctx.moveTo(0, -d);
      ctx.lineTo(d, 0);
      ctx.lineTo(0, d);
      ctx.lineTo(-d, 0);
      ctx.closePath();
      ctx.fill();
      return;
    }
    case 'focus': {
      // Two lids drawn as circular arcs that do not meet, a slit pupil standing between them.
      const r = k * 1.25;
      const c = r * 0.55;
      ctx.beginPath();
      ctx.arc(0, c, r, Math.PI * 1.24, Math.PI * 1.76);
      ctx.stroke();
      ctx.beginPath();
      ctx.arc(0, -c, r, Math.PI * 0.24, Math.PI * 0.76);
      ctx.stroke();
      ctx.beginPath();
      ctx.ellipse(0, 0, k * 0.13, k * 0.42, 0, 0, Math.PI * 2);
      ctx.fill();
      return;
    }
    case 'evade': {
      // Three straight speed lines of falling length trailing a solid ball.
      ctx.save();
      ctx.lineCap = 'butt';
      for (const [dy, len] of [[-0.42, 0.75], [0, 1.05], [0.42, 0.75]]) segment(ctx, (0.35 - len) * k, dy * k, 0.25 * k, dy * k);
      ctx.restore();
      disc(ctx, k * 0.3, k * 0.62, 0);
      return;
    }
    default:
      return;
  }
}

// Random artwork (training only, see look.ts): each die draws its own style from the seed Node gives it, so all its
// faces share one printing. The styles keep what makes each symbol itself (a hit one solid burst, a crit a burst
// with a second element, a focus an eye, an evade curved strokes, a blank nothing) and vary everything else; none
// is one of the foreign artworks' motifs (four-pointed sparkles, rays, lashes, a ringed iris, chevrons, a single
// arrowed arc, loose shards, a slit pupil, straight speed lines), which stay unseen in training.

/** A die's style: the same for every face of it. */
function randomStyle(seed) {
  const r = mulberry(seed);
  const pick = (n) => Math.floor(r() * n);
  const spikes = 5 + pick(8);
  const jag = r() < 0.5 ? 0 : 0.1 + 0.3 * r();
  return {
    spikes,
    inner: 0.3 + 0.3 * r(),
    turn: r() * Math.PI,
    curved: r() < 0.35,
    // Each spike's own length (an explosion rather than a star when jagged).
    lengths: Array.from({ length: spikes }, () => 1 - jag * r()),
    hit: pick(2),
    crit: pick(3),
    critCore: 0.32 + 0.2 * r(),
    focus: pick(4),
    eye: 0.45 + 0.35 * r(),
    pupil: 0.2 + 0.18 * r(),
    evade: pick(4),
    arcs: 2 + pick(2),
    bend: 0.35 + 0.45 * r(),
  };
}

/** The die's burst outline (scaled by `scale`), straight or curved between tips. */
function styleBurst(ctx, k, st, scale = 1) {
  const n = st.spikes;
  ctx.beginPath();
  for (let i = 0; i <= n * 2; i++) {
    const a = st.turn + (i * Math.PI) / n;
    const rr = k * scale * (i % 2 === 0 ? st.lengths[(i / 2) % n] : st.inner);
    const x = rr * Math.sin(a);
    const y = -rr * Math.cos(a);
    if (i === 0) ctx.moveTo(x, y);
    else if (st.curved && i % 2 === 1) {
      const c = k * scale * st.inner * 0.55;
      ctx.quadraticCurveTo(c * Math.sin(a), -c * Math.cos(a), x, y);
    } else ctx.lineTo(x, y);
  }
  ctx.closePath();
}

function drawRandom(ctx, symbol, k, art) {
  const st = randomStyle(art.seed ?? 0);
  switch (symbol) {
    case 'hit': {
      styleBurst(ctx, k, st);
      ctx.fill();
      // Never an outline around a core: that is what a crit is.
      if (st.hit === 1) hole(ctx, k * st.inner * 0.4);
      return;
    }
    case 'crit': {
      if (st.crit === 0) {
        // The burst outlined, a solid core.
        styleBurst(ctx, k, st);
        ctx.stroke();
        styleBurst(ctx, k, st, st.critCore);
        ctx.fill();
      } else if (st.crit === 1) {
        // Two nested outlines and a dot.
        styleBurst(ctx, k, st);
        ctx.stroke();
        styleBurst(ctx, k, st, 0.55);
        ctx.stroke();
        disc(ctx, k * 0.12);
      } else {
        // The burst outlined, a solid round core.
        styleBurst(ctx, k, st);
        ctx.stroke();
        disc(ctx, k * st.critCore * 0.6);
      }
      return;
    }
    case 'focus': {
      const h = k * st.eye;
      ctx.beginPath();
      if (st.focus === 2) ctx.ellipse(0, 0, k, h, 0, 0, Math.PI * 2);
      else almond(ctx, k, h);
      if (st.focus === 1) {
        // A solid eye, its iris cut out, a pupil in it.
        ctx.fill();
        hole(ctx, k * (st.pupil + 0.14));
        disc(ctx, k * st.pupil);
      } else if (st.focus === 3) {
        // An outlined eye whose iris hangs from the upper lid.
        ctx.stroke();
        ctx.save();
        ctx.clip();
        disc(ctx, k * (st.pupil + 0.12), 0, -h * 0.25);
        ctx.restore();
      } else {
        ctx.stroke();
        disc(ctx, k * st.pupil);
      }
      return;
    }
    case 'evade': {
      const n = st.arcs;
      for (let i = 0; i < n; i++) {
        const off = (i - (n - 1) / 2) * k * (1.4 / n);
        if (st.evade === 1) {
          // Solid crescents.
          ctx.beginPath();
          ctx.moveTo(-k * 0.9, off + k * 0.3);
          ctx.quadraticCurveTo(0, off - k * st.bend * 1.3, k * 0.9, off + k * 0.1);
          ctx.quadraticCurveTo(0, off - k * st.bend * 0.5, -k * 0.9, off + k * 0.3);
          ctx.fill();
          continue;
        }
        ctx.beginPath();
        if (st.evade === 3) {
          // S-shaped swooshes.
          ctx.moveTo(-k * 0.9, off + k * 0.2);
          ctx.bezierCurveTo(-k * 0.3, off - k * st.bend, k * 0.3, off + k * st.bend * 0.6, k * 0.9, off - k * 0.2);
        } else {
          ctx.moveTo(-k * 0.9, off + k * 0.3);
          ctx.quadraticCurveTo(0, off - k * st.bend, k * 0.9, off + k * 0.1);
        }
        ctx.stroke();
        if (st.evade === 2) {
          // Each swoosh ends in a small solid head.
          ctx.beginPath();
          ctx.moveTo(k * 1.0, off + k * 0.1);
          ctx.lineTo(k * 0.68, off - k * 0.08);
          ctx.lineTo(k * 0.74, off + k * 0.3);
          ctx.closePath();
          ctx.fill();
        }
      }
      return;
    }
    default:
      return;
  }
}
