// Chat-room relay on Node + Debian's node-ws: every text frame received is sent
// to every client connected on the same request path (the room), sender included.
// Usage: node node_ws_peer.js PORT (or env PORT).
'use strict';
let WebSocket;
try { WebSocket = require('ws'); } catch (e) { WebSocket = require('/usr/share/nodejs/ws'); }

const port = Number(process.argv[2] || process.env.PORT || 9002);
const rooms = new Map();
const wss = new WebSocket.WebSocketServer({ host: '127.0.0.1', port, perMessageDeflate: false, maxPayload: 16 << 20 });

wss.on('connection', (ws, req) => {
  const path = (req.url || '/').split('?')[0];
  let room = rooms.get(path);
  if (!room) { room = new Set(); rooms.set(path, room); }
  room.add(ws);
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    for (const c of room) if (c.readyState === WebSocket.OPEN) c.send(data, { binary: false });
  });
  ws.on('close', () => { room.delete(ws); if (room.size === 0) rooms.delete(path); });
  ws.on('error', () => {});
});
wss.on('listening', () => console.log(`listening on http://127.0.0.1:${port}`));
