/* global document, fetch */
// The review page: every text from the store goes in through textContent (never innerHTML),
// so a die label or a reason cannot become markup; the CSP forbids inline script as well.
const $ = (id) => document.getElementById(id);
let rolls = [];
let selected = 0;

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function showDice(dice) {
  const body = $('dice').tBodies[0];
  body.replaceChildren(
    ...dice.map((d) => {
      const tr = el('tr');
      tr.dataset.die = d.label;
      tr.append(el('td', 'label', d.label), el('td', 'kind', d.kind), el('td', 'resolved', String(d.resolved)), el('td', 'reviewed', String(d.reviewed)), el('td', 'unresolved', String(d.unresolved)), el('td', 'sentence', d.sentence));
      return tr;
    }),
  );
}

function showLeft() {
  const left = rolls.filter((r) => !r.label).length;
  $('left').textContent = `(${left} left)`;
  $('done').hidden = left > 0;
}

function select(i) {
  if (rolls.length === 0) return;
  selected = Math.max(0, Math.min(rolls.length - 1, i));
  rolls.forEach((r, j) => r.card.classList.toggle('selected', j === selected));
  rolls[selected].card.scrollIntoView({ block: 'nearest' });
}

function card(r, i) {
  const c = el('div', 'crop');
  c.dataset.roll = String(r.rollId);
  const img = el('img');
  img.alt = `crop of roll ${r.rollId}`;
  if (r.crop) img.src = `/api/crops/${r.rollId}`;
  const faces = el('div', 'faces');
  r.faces.forEach((f, k) => {
    const b = el('button', '', f);
    b.type = 'button';
    b.title = k < 8 ? `key ${k + 1}` : '';
    b.dataset.face = f;
    b.addEventListener('click', (ev) => {
      ev.stopPropagation();
      select(i);
      void label(r, f);
    });
    faces.append(b);
  });
  c.append(img, el('div', 'die', `${r.die} (${r.dieType}), throw ${r.throwIndex}`), el('div', 'guess', `reader: ${r.guess ?? 'no reading stored'}`), el('div', 'reason', `why: ${r.reason ?? 'no reason stored'}`), faces, el('div', 'label'));
  c.addEventListener('click', () => select(i));
  return c;
}

async function label(r, face) {
  if (r.label) return;
  const res = await fetch(`/api/rolls/${r.rollId}/label`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ face }) });
  const body = await res.json();
  if (!res.ok) {
    $('message').textContent = body.error;
    return;
  }
  $('message').textContent = '';
  r.label = body.review.face;
  r.card.classList.add('labelled');
  r.card.querySelector('.label').textContent = `labelled ${body.review.face} by ${body.review.reviewer}`;
  r.card.querySelectorAll('button').forEach((b) => (b.disabled = true));
  showDice(body.dice);
  showLeft();
  const next = rolls.findIndex((x, j) => j > selected && !x.label);
  if (next >= 0) select(next);
}

document.addEventListener('keydown', (ev) => {
  if (ev.key === 'ArrowRight') select(selected + 1);
  else if (ev.key === 'ArrowLeft') select(selected - 1);
  else if (/^[1-8]$/.test(ev.key)) {
    const r = rolls[selected];
    const face = r?.faces[Number(ev.key) - 1];
    if (r && face !== undefined) void label(r, face);
    else if (r) $('message').textContent = `A ${r.dieType} die has no face number ${ev.key}.`;
  }
});

async function start() {
  const res = await fetch('/api/review');
  const data = await res.json();
  if (!res.ok) {
    $('message').textContent = data.error;
    return;
  }
  $('title').textContent = data.session.title;
  $('sim').hidden = !data.session.simulated;
  $('reviewer').textContent = data.reviewer;
  showDice(data.dice);
  rolls = data.rolls;
  $('grid').replaceChildren(...rolls.map((r, i) => (r.card = card(r, i))));
  showLeft();
  select(0);
  document.body.dataset.ready = 'true';
}

void start();
