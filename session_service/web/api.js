// The public HTTP API as the page uses it: JSON calls, the error body's message, and the live stream.

export class ApiError extends Error {
  constructor(status, body) {
    const err = (body && body.error) || {};
    super(err.message || `the server answered ${status}`);
    this.status = status;
    this.code = err.code || "http/" + status;
    this.details = err.details || {};
  }
}

export async function call(method, path, { token, body, query } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = "Bearer " + token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let url = path;
  if (query) url += "?" + new URLSearchParams(query).toString();
  let reply;
  try {
    reply = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (exc) {
    throw new ApiError(0, { error: { code: "network/down", message: "the server cannot be reached; check your connection" } });
  }
  const text = await reply.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (exc) { data = null; }
  if (!reply.ok) throw new ApiError(reply.status, data);
  return data;
}

let catalogPromise = null;
export function catalog() {
  if (!catalogPromise) catalogPromise = call("GET", "/v1/catalog").then((c) => {
    const byId = {};
    for (const g of c.games) byId[g.id] = g;
    return byId;
  });
  return catalogPromise;
}

// Follow a game's stream as NDJSON over fetch (EventSource cannot send the seat's Authorization header).
// Calls onMessage(type, data, id) for each message; resumes after the last version seen when the
// connection drops, until the game ends or stop() is called.
export function follow(gameId, token, onMessage, onTrouble) {
  return ndjson((after) => `/v1/games/${encodeURIComponent(gameId)}/events/stream` + (after === null ? "" : "?after=" + after),
    token, onMessage, onTrouble);
}

// Follow the player's own stream (GET /v1/me/stream): every table of the player, live. It never ends by
// itself; after a dropped connection its first message lists the tables again.
export function followMine(key, onMessage, onTrouble) {
  return ndjson(() => "/v1/me/stream", key, onMessage, onTrouble);
}

function ndjson(urlAfter, token, onMessage, onTrouble) {
  let stopped = false;
  let after = null;
  let controller = null;
  async function run() {
    while (!stopped) {
      controller = new AbortController();
      const headers = { Accept: "application/x-ndjson" };
      if (token) headers.Authorization = "Bearer " + token;
      let ended = false;
      let wait = 1000;
      try {
        const reply = await fetch(urlAfter(after), { headers, signal: controller.signal });
        if (!reply.ok) {
          let body = null;
          try { body = await reply.json(); } catch (exc) { body = null; }
          const err = new ApiError(reply.status, body);
          onTrouble(err);
          if (reply.status < 500 && reply.status !== 429) return;
          wait = 1000 * Number(reply.headers.get("Retry-After") || 2);
        } else {
          const reader = reply.body.getReader();
          const decoder = new TextDecoder();
          let buffer = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += decoder.decode(value, { stream: true });
            let cut;
            while ((cut = buffer.indexOf("\n")) >= 0) {
              const line = buffer.slice(0, cut).trim();
              buffer = buffer.slice(cut + 1);
              if (!line) continue;
              const msg = JSON.parse(line);
              if (msg.type === "retry") { wait = msg.data.retry_ms; continue; }
              if (msg.id !== undefined && msg.id !== null) after = Number(msg.id);
              if (msg.type === "turn" && after === null) after = msg.data.version;
              if (msg.type === "end") ended = true;
              onMessage(msg.type, msg.data, msg.id);
            }
          }
        }
      } catch (exc) {
        if (stopped) return;
      }
      if (ended || stopped) return;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  run();
  return { stop() { stopped = true; if (controller) controller.abort(); } };
}

// Seat tokens and the player's name stay in this browser only (localStorage), never in a URL sent to the server.
export const store = {
  name() { return localStorage.getItem("mythos.name") || ""; },
  setName(name) { localStorage.setItem("mythos.name", name); },
  playerKey() { return localStorage.getItem("mythos.playerKey") || ""; },
  setPlayerKey(key) { localStorage.setItem("mythos.playerKey", key); },
  tokens(gameId) {
    try { return JSON.parse(localStorage.getItem("mythos.tokens." + gameId) || "{}"); } catch (exc) { return {}; }
  },
  // Keep a seat's token. A seat token is shown once: a different one held for the seat already is never dropped,
  // it is kept aside (spares) where nothing overwrites it.
  saveToken(gameId, seat, token) {
    const all = store.tokens(gameId);
    if (all[seat] && all[seat] !== token) {
      const spares = store.spares(gameId);
      if (!spares.some((s) => s.seat === seat && s.token === all[seat])) spares.push({ seat, token: all[seat] });
      localStorage.setItem("mythos.spares." + gameId, JSON.stringify(spares));
    }
    all[seat] = token;
    localStorage.setItem("mythos.tokens." + gameId, JSON.stringify(all));
    const games = store.games();
    if (!games.includes(gameId)) { games.unshift(gameId); localStorage.setItem("mythos.games", JSON.stringify(games.slice(0, 50))); }
  },
  spares(gameId) {
    try { return JSON.parse(localStorage.getItem("mythos.spares." + gameId) || "[]"); } catch (exc) { return []; }
  },
  games() {
    try { return JSON.parse(localStorage.getItem("mythos.games") || "[]"); } catch (exc) { return []; }
  },
};
