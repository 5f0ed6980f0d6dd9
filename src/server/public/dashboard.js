/* global document, location, URLSearchParams, sessionStorage, history, fetch, Image */
// The live dashboard: the latest frame with each die outlined and labelled,
// each die's tally and verdict progress (the evidence plot), rig health, the
// queue and recent rolls, and the controls (mode, start/pause/stop), which
// need the API token (kept in this browser tab only).
import { clear, connectLive, el } from './live.js';
import { nameElement } from './names.js';

const $ = (id) => document.getElementById(id);
const NS = 'http://www.w3.org/2000/svg';
const COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#f0e442', '#000000'];
let state = { dice: [], queue: [], history: [], channels: [] };
const eventLines = [];

function svg(tag, attrs = {}) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

// The token: from the page address (#token=...) once, then kept for this tab; never sent anywhere but this server.
const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
if (fromHash) {
  sessionStorage.setItem('dicerig-token', fromHash);
  history.replaceState(null, '', location.pathname + location.search);
}
$('token').value = sessionStorage.getItem('dicerig-token') ?? '';
$('token').addEventListener('change', () => sessionStorage.setItem('dicerig-token', $('token').value.trim()));

async function control(path, body) {
  const token = $('token').value.trim();
  $('control-message').textContent = '…';
  try {
    const r = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    const answer = await r.json().catch(() => ({}));
    $('control-message').textContent = r.ok ? 'ok' : refusal(r.status, answer.error, token);
  } catch (e) {
    $('control-message').textContent = `failed: ${e.message}`;
  }
}
// What to do about a refused button, in the streamer's words (the API's own message is written for developers).
function refusal(status, error, token) {
  const where = 'the DICERIG_TOKEN the server was started with, or server.token in its session config';
  if (status === 401 && !/no API token is set/.test(error ?? '')) {
    return token === '' ? `The buttons need the API token: paste ${where}, into the API token field.` : `That API token is not this server's: paste ${where}.`;
  }
  return `${status}: ${error ?? ''}`;
}

// Said once to screen readers, in the page's polite live region.
function announce(text) {
  $('announce').textContent = text;
}

$('mode-stream').addEventListener('click', () => control('/api/mode', { mode: 'stream' }));
$('mode-fairness').addEventListener('click', () => control('/api/mode', { mode: 'fairness' }));
for (const action of ['start', 'pause', 'stop']) $(action).addEventListener('click', () => control('/api/run', { action }));

function renderMode() {
  $('mode-now').textContent = state.mode === 'fairness' ? 'fairness run' : 'stream rolling';
  $('run-now').textContent = state.run ? `(${state.run})` : '';
  $('run-reason').textContent = state.stopped ?? '';
  $('run-reason').hidden = state.stopped === undefined;
  document.body.dataset.mode = state.mode;
  document.body.dataset.run = state.run;
  for (const mode of ['stream', 'fairness']) {
    $(`mode-${mode}`).classList.toggle('active', state.mode === mode);
    $(`mode-${mode}`).setAttribute('aria-pressed', String(state.mode === mode));
  }
}

// A frame's picture loads after its event. It is loaded and decoded off screen, then put in place of the shown one
// together with its marks, and a newer frame waits for the one loading: the outlines always sit on the picture they
// were read from (a simulated rig throws faster than a picture loads; a new address on the shown picture would blank
// it, and cut every load short).
let frameLoading = false;
let frameNext = null;

async function renderFrame(frame) {
  if (!frame) return;
  if (frameLoading) {
    frameNext = frame;
    return;
  }
  frameLoading = true;
  const marks = $('frame-marks');
  try {
    const picture = new Image();
    picture.id = 'frame';
    picture.alt = $('frame').alt;
    picture.src = frame.url;
    await picture.decode();
    $('frame').replaceWith(picture);
    $('frame-empty').hidden = true;
    drawMarks(frame, picture, marks);
  } catch {
    // The server keeps a few frames only: a frame gone before it loaded is skipped, and the picture shown keeps its marks.
  } finally {
    frameLoading = false;
    const next = frameNext;
    frameNext = null;
    if (next && next !== frame) renderFrame(next);
  }
}

function drawMarks(frame, img, marks) {
  img.dataset.frame = frame.frame;
  marks.dataset.frame = frame.frame;
  $('frame-info').textContent = `#${frame.frame} (${frame.mode})`;
  marks.setAttribute('viewBox', `0 0 ${frame.width} ${frame.height}`);
  clear(marks);
  for (const d of frame.dice) {
    const b = d.bbox;
    marks.append(svg('rect', { x: b.x, y: b.y, width: b.width, height: b.height, class: d.status, 'data-channel': d.channel ?? '' }));
    const t = svg('text', { x: b.x, y: Math.max(20, b.y - 6), 'data-channel': d.channel ?? '' });
    t.textContent = `${d.label || 'stray'}: ${d.status === 'read' ? d.symbol : d.status} ${d.status === 'read' ? `(${Math.round(d.confidence * 100)}%)` : ''}`.trim();
    marks.append(t);
    // A die near the right edge: its label moves left to stay whole inside the frame.
    const width = t.getComputedTextLength();
    if (b.x + width > frame.width - 4) t.setAttribute('x', String(Math.max(0, frame.width - 4 - width)));
  }
}

// A face the reader never reads leaves FAIR_WITHIN out of reach: the cell says so rather than show a count of rolls.
function stillNeeded(d) {
  // Decided, or no rolls yet (the count needed comes with the first statuses; 0 would read as "none needed").
  if (d.decided || !d.rolls) return el('td', { 'data-col': 'needed', text: '—' });
  if (d.unreadableFace) {
    return el('td', {
      'data-col': 'needed',
      class: 'unreadable',
      title: `No ${d.unreadableFace} has been read: the reader likely cannot read this face, so its rolls stay unresolved. Review them (dicerig review), or give a calibration that reads it.`,
      text: `no ${d.unreadableFace} read: review`,
    });
  }
  return el('td', { 'data-col': 'needed', text: d.rollsNeeded });
}

function renderDice() {
  const body = document.querySelector('#dice-table tbody');
  clear(body);
  for (const d of state.dice) {
    const tally = Object.entries(d.tally ?? {}).sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k}:${n}`).join(' ');
    body.append(
      el('tr', { 'data-die': d.label },
        el('td', { text: d.label }),
        el('td', { text: d.type }),
        el('td', { class: `state-${d.state}`, 'data-col': 'state', text: d.decided ? d.state : `${d.state} (undecided)` }),
        el('td', { 'data-col': 'rolls', text: d.rolls }),
        stillNeeded(d),
        el('td', { class: 'tally', text: tally }),
        el('td', { text: Number(d.logE ?? 0).toFixed(2) })),
    );
  }
  $('totals').textContent = state.totals ? `${state.totals.throws} throws, ${state.totals.ok} counted, ${state.totals.rerolled} re-tumbled, ${state.totals.void} void` : '';
  renderEvidence();
}

function renderEvidence() {
  const plot = $('evidence');
  clear(plot);
  const W = 600, H = 220, L = 40, B = 20;
  const maxX = Math.max(10, ...state.dice.flatMap((d) => (d.trace ?? []).map((p) => p[0])));
  const ys = state.dice.flatMap((d) => (d.trace ?? []).map((p) => p[1]));
  // The session's own line: each die is decided at α/K, UNFAIR once its e-value reaches K/α (not 1/α).
  const control = state.errorControl ?? { logThreshold: Math.log(100), threshold: 100, dice: 1 };
  const threshold = control.logThreshold;
  const maxY = Math.max(threshold * 1.2, ...ys, 1);
  const minY = Math.min(-2, ...ys);
  const x = (v) => L + ((W - L - 10) * v) / maxX;
  const y = (v) => H - B - ((H - B - 10) * (v - minY)) / (maxY - minY);
  plot.append(svg('line', { x1: L, y1: y(0), x2: W - 10, y2: y(0), class: 'axis' }));
  plot.append(svg('line', { x1: L, y1: y(threshold), x2: W - 10, y2: y(threshold), class: 'threshold' }));
  const tl = svg('text', { x: L + 4, y: y(threshold) - 4 });
  tl.textContent = `UNFAIR above ln(${control.dice}/α) = ${threshold.toFixed(2)} (e ≥ ${Math.round(control.threshold)})`;
  plot.append(tl);
  const xl = svg('text', { x: W - 10, y: H - 4, 'text-anchor': 'end' });
  xl.textContent = `${maxX} rolls`;
  plot.append(xl);
  state.dice.forEach((d, i) => {
    const pts = (d.trace ?? []).map(([r, e]) => `${x(r).toFixed(1)},${y(e).toFixed(1)}`).join(' ');
    if (pts) plot.append(svg('polyline', { points: pts, stroke: COLOURS[i % COLOURS.length], 'data-die': d.label }));
    const key = svg('text', { x: L + 4 + i * 130, y: H - 4, fill: COLOURS[i % COLOURS.length] });
    key.textContent = d.label;
    plot.append(key);
  });
}

function renderRig() {
  const r = state.rigHealth ?? {};
  const dl = $('rig');
  clear(dl);
  const row = (k, v, cls) => dl.append(el('dt', { text: k }), el('dd', { class: cls, text: v }));
  row('rig', `${r.rig ?? '?'} (${r.driver ?? '?'}${r.simulated ? ', simulated' : ''})`);
  row('state', r.state ?? '?', r.state === 'ok' ? '' : 'fault');
  row('faults', String(r.faults ?? 0));
  if (r.lastFault) row('last fault', r.lastFault, 'fault');
  if (r.link) row('link', `${r.link.commands} commands, ${r.link.retransmits} retransmits, ${r.link.timeouts} timeouts, ${r.link.reconnects} reconnects`);
  if (state.rigCheck) row('rig check', `look ${state.rigCheck.look}: ${state.rigCheck.suspect ? 'SUSPECT' : 'ok'} (min adj. p ${Number(state.rigCheck.minAdjustedP).toPrecision(2)})`);
  $('sim').hidden = !r.simulated;
}

function renderQueue() {
  const q = $('queue');
  clear(q);
  for (const item of state.queue) q.append(byLine(el('li', { 'data-roll': item.id }), item.by, item.request));
  // An empty queue is said in words beside the list, not as a numbered item "1. empty".
  q.hidden = state.queue.length === 0;
  $('queue-empty').hidden = state.queue.length > 0;
  const rolls = $('rolls');
  clear(rolls);
  const shown = [...(state.rolling ? [state.rolling] : []), ...state.history];
  for (const r of shown.slice(0, 10)) rolls.append(byLine(el('li', { 'data-roll': r.id, 'data-state': r.state }), r.by, r.line ?? `${r.request} (${r.state})`));
}

function byLine(li, by, text) {
  const name = nameElement(by);
  if (name) li.append(name, ': ');
  li.append(text);
  return li;
}

function logEvent(text) {
  eventLines.unshift(`${new Date().toLocaleTimeString()} ${text}`);
  eventLines.length = Math.min(eventLines.length, 40);
  const list = $('events');
  clear(list);
  for (const line of eventLines) list.append(el('li', { text: line }));
}

function renderAll() {
  renderMode();
  renderFrame(state.frame);
  renderDice();
  renderRig();
  renderQueue();
}

connectLive({
  onStatus: (s) => {
    $('connection').dataset.status = s;
    $('connection').textContent = s === 'live' ? 'live' : 'reconnecting…';
  },
  onState: (s) => {
    state = { ...s, history: s.history ?? [], queue: s.queue ?? [] };
    document.body.dataset.epoch = s.epoch;
    renderAll();
  },
  onEvent: (e) => {
    switch (e.type) {
      case 'mode':
        Object.assign(state, { mode: e.mode, run: e.run, stopped: e.stopped });
        renderMode();
        break;
      case 'frame':
        state.frame = e;
        renderFrame(e);
        break;
      case 'throw':
        if (e.mode === 'fairness') {
          for (const u of e.dice) {
            const d = state.dice.find((x) => x.label === u.label);
            if (!d) continue;
            Object.assign(d, { state: u.state, decided: u.decided, rolls: u.rolls, rollsNeeded: u.rollsNeeded, unreadableFace: u.unreadableFace, logE: u.logE, tally: u.tally });
            if (u.point) (d.trace ??= []).push(u.point);
          }
          state.totals = e.totals;
          renderDice();
        }
        logEvent(`throw ${e.index} (${e.mode}) ${e.status}`);
        break;
      case 'throw-started':
        logEvent(`throw started (${e.mode})`);
        break;
      case 'retumble':
        logEvent(`re-tumble: ${e.reason}`);
        break;
      case 'verdict':
        logEvent(`${e.label}: ${e.sentence}`);
        announce(`${e.label}: ${e.sentence}`);
        break;
      case 'notice':
        logEvent(`${e.label}: ${e.message}`);
        announce(`${e.label}: ${e.message}`);
        break;
      case 'rig': {
        const was = state.rigHealth?.state;
        if (e.state) state.rigHealth = { ...state.rigHealth, ...e };
        renderRig();
        logEvent(`rig: ${e.message ?? e.state}`);
        if (e.state && e.state !== 'ok') announce(`Rig ${e.state}: ${e.message ?? e.lastFault ?? ''}`);
        else if (e.state === 'ok' && was && was !== 'ok') announce('Rig recovered.');
        break;
      }
      case 'rig-check':
        state.rigCheck = e;
        renderRig();
        break;
      case 'queue':
        state.queue = e.queue;
        renderQueue();
        break;
      case 'roll':
        if (e.roll.state === 'rolling') state.rolling = e.roll;
        else if (state.rolling && state.rolling.id === e.roll.id) state.rolling = null;
        if (e.roll.state === 'done') state.history = [e.roll, ...state.history.filter((r) => r.id !== e.roll.id)].slice(0, 10);
        renderQueue();
        if (e.roll.state === 'done' || e.roll.state === 'failed' || e.roll.state === 'abandoned') logEvent(`roll ${e.roll.id}: ${e.roll.line ?? e.roll.error}`);
        break;
      case 'server-stopping':
        logEvent(`the server is stopping: ${e.rolling ? `roll ${e.rolling} stops after its current throw; ` : ''}${e.abandoned.length} waiting rolls abandoned`);
        announce('The server is stopping.');
        break;
      case 'run-ended':
        logEvent(`run ended: ${e.reason}`);
        announce(`Run ended: ${e.reason}`);
        break;
    }
  },
});
