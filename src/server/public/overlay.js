/* global document, location, URLSearchParams, requestAnimationFrame, performance */
// The OBS overlay: the last roll large with its dice, the modified result and
// a short history. Query parameters: theme (dark, light, plain), size (die
// size in pixels), dice (which die kinds to show, e.g. red,green), history
// (how many earlier rolls). It reconnects by itself, and a roll it learns of
// on (re)connecting is shown as an earlier roll, never as a new one.
import { clear, connectLive, el } from './live.js';
import { dieIcon } from './icons.js';

const params = new URLSearchParams(location.search);
const size = Math.max(24, Math.min(240, Number(params.get('size')) || 72));
const theme = ['dark', 'light', 'plain'].includes(params.get('theme')) ? params.get('theme') : 'dark';
const only = (params.get('dice') || '').split(',').map((s) => s.trim()).filter((s) => s !== '');
const keep = Math.max(0, Math.min(10, Number(params.get('history') ?? 5)));
document.body.classList.add(`theme-${theme}`);
document.body.style.setProperty('--size', `${size}px`);

const root = document.getElementById('overlay');
const current = document.getElementById('current');
const who = document.getElementById('who');
const request = document.getElementById('request');
const diceBox = document.getElementById('dice');
const result = document.getElementById('result');
const historyList = document.getElementById('history');
const connection = document.getElementById('connection');

let shown = null; // id of the roll on screen
let history = [];
const shows = (kind) => only.length === 0 || only.includes(kind);

function resultText(roll) {
  if (roll.state === 'failed') return `failed: ${roll.error ?? ''}`;
  if (roll.state === 'abandoned') return 'abandoned: the server is stopping';
  // Each group's result ("3 red: ... -> 2 damage; 2d6: 3, 4 -> 7"), or its faces when it has no modified result.
  return (roll.line ?? '')
    .split('; ')
    .map((part) => {
      const i = part.lastIndexOf('->');
      return i >= 0 ? part.slice(i + 2).trim() : part.slice(part.indexOf(':') + 1).trim();
    })
    .join('; ');
}

function slot(kind, symbol, note, kept = true) {
  const s = el('div', { class: `die-slot${kept ? '' : ' discarded'}`, 'data-kind': kind, 'data-symbol': symbol });
  s.append(dieIcon(kind, symbol, size), el('span', { class: 'note', text: note }));
  return s;
}

function markShown(rollId, what) {
  // The moment the dice are on screen (next frame), for the latency bench: User Timing marks.
  requestAnimationFrame(() => performance.mark(`shown ${what} ${rollId}`));
}

function showRoll(roll, fresh) {
  shown = roll.id;
  root.dataset.state = roll.state;
  root.dataset.roll = roll.id;
  current.classList.remove('fresh', 'stale');
  void current.offsetWidth;
  current.classList.add(fresh ? 'fresh' : 'stale');
  current.dataset.fresh = String(fresh);
  who.textContent = roll.by ? roll.by : '';
  request.textContent = roll.request;
  clear(diceBox);
  if (roll.state === 'done') {
    for (const d of roll.dice) {
      if (!shows(d.kind)) continue;
      const note = [d.rerolledFrom !== undefined ? `was ${d.rerolledFrom}` : '', d.modified ? `→ ${d.modified}` : ''].filter((x) => x).join(' ');
      diceBox.append(slot(d.kind, d.symbol, note, d.kept));
    }
  } else {
    for (const d of roll.partial ?? []) if (shows(d.type)) diceBox.append(slot(d.type, d.faceId ?? d.symbol, ''));
  }
  result.textContent = roll.state === 'done' || roll.state === 'failed' || roll.state === 'abandoned' ? resultText(roll) : 'rolling…';
  markShown(roll.id, roll.state);
}

function renderHistory() {
  clear(historyList);
  for (const r of history.slice(1, keep + 1)) historyList.append(el('li', { 'data-roll': r.id, text: `${r.by ? `${r.by}: ` : ''}${r.request} → ${resultText(r)}` }));
}

function remember(roll) {
  history = [roll, ...history.filter((r) => r.id !== roll.id)].slice(0, 11);
  renderHistory();
}

connectLive({
  onStatus: (s) => {
    connection.hidden = s === 'live';
  },
  onState: (state) => {
    history = state.history ?? [];
    renderHistory();
    if (state.rolling) showRoll(state.rolling, false);
    else if (history[0] && history[0].id !== shown) showRoll(history[0], false);
    else if (!history[0]) root.dataset.state = 'empty';
  },
  onEvent: (e) => {
    if (e.type === 'roll') {
      const roll = e.roll;
      // A waiting roll abandoned at shutdown was never shown; only the one on screen says it was abandoned.
      if (roll.state === 'queued' || roll.state === 'cancelled' || (roll.state === 'abandoned' && roll.id !== shown)) return;
      if (roll.state === 'rolling') {
        // The dice kept so far replace the ones shown live.
        showRoll(roll, shown !== roll.id);
        return;
      }
      showRoll(roll, true);
      if (roll.state === 'done') remember(roll);
    } else if (e.type === 'die-read' && e.mode === 'stream' && e.counted && e.rollId === shown && root.dataset.state === 'rolling') {
      if (e.status !== 'read' || !shows(e.dieType)) return;
      const s = slot(e.dieType, e.symbol, '');
      s.classList.add('live');
      diceBox.append(s);
      requestAnimationFrame(() => performance.mark(`die ${e.rollId} ${e.frame} ${e.channel} ${e.at}`));
    } else if (e.type === 'retumble' && e.rollId === shown) {
      // That throw did not count: its dice go, the rig throws again.
      for (const s of [...diceBox.querySelectorAll('.die-slot.live')]) s.remove();
      result.textContent = 'rolling again…';
    }
  },
});
