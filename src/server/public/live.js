/* global document, location, WebSocket, setTimeout */
// The live stream: connects to /live, hands the state (sent first on every
// connection) and then each event to the page, and reconnects by itself with a
// growing pause when the server goes away.
export function connectLive({ onState, onEvent, onStatus }) {
  let delay = 250;
  let socket;
  const open = () => {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    socket = new WebSocket(`${scheme}://${location.host}/live`);
    socket.addEventListener('open', () => {
      delay = 250;
      onStatus('live');
    });
    socket.addEventListener('message', (m) => {
      let event;
      try {
        event = JSON.parse(m.data);
      } catch {
        return;
      }
      if (event.type === 'state') onState(event);
      else onEvent(event);
    });
    socket.addEventListener('close', () => {
      onStatus('reconnecting');
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 4000);
    });
    socket.addEventListener('error', () => socket.close());
  };
  open();
}

// Builds elements from text only (never HTML), so every label is shown as written.
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = String(v);
    else e.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== undefined && c !== null) e.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return e;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}
