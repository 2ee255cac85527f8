// The replay of a game by moves: the move list in words (each move the sentences of one command's events), a
// step to the previous or next move or a jump to any, the table as it stood after it (GET /state?at=N: every hand
// once the game is over), and the audit verdict and the export. While the game is on, the same viewer steps
// through what the caller may see.

import { call, catalog, store } from "./api.js";
import { el } from "./render.js";
import { aboutTable, endWords, layoutFor, seatPanels } from "./games.js";
import { listWords } from "./cards.js";
import { sentence } from "./narrate.js";
import { toast } from "./toast.js";

// The seed commitment, checked in this browser: sha256(seed) must be the commitment published at creation.
async function seedMatches(resource) {
  if (!resource.seed || !(window.crypto && crypto.subtle)) return null;
  const bytes = new Uint8Array(resource.seed.match(/../g).map((h) => parseInt(h, 16)));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("") === resource.seed_commitment;
}

async function allEvents(gameId, token) {
  const events = [];
  let after = 0;
  for (;;) {
    const page = await call("GET", `/v1/games/${encodeURIComponent(gameId)}/events`, { token, query: { after, limit: 500 } });
    events.push(...page.events);
    if (!page.events.length || events[events.length - 1].version >= page.version) return events;
    after = events[events.length - 1].version;
  }
}

export async function replayPage(main, gameId) {
  const path = `/v1/games/${encodeURIComponent(gameId)}`;
  const [games, resource] = await Promise.all([catalog(), call("GET", path)]);
  const game = games[resource.game];
  const layout = layoutFor(game);
  const over = resource.status === "finished";
  const tokens = store.tokens(gameId);
  // once over, everyone sees everything; a private table's is shown to its seats (and invitees) only, so ask as one
  const token = Object.values(tokens)[0] || store.playerKey() || null;
  const mySeat = over || !Object.keys(tokens).length ? null : Number(Object.keys(tokens)[0]);
  const names = resource.seats.map((s, n) => s.name || `Seat ${n + 1}`);
  const events = await allEvents(gameId, token);
  const moves = groupMoves(events);
  const head = resource.version;
  let at = head;

  const list = el("ol", { class: "move-list", id: "moves" }, moves.map((m, i) => el("li", { "data-move": i, "data-version": m.last },
    el("button", { type: "button", class: "move", "data-version": m.last, onclick: () => go(m.last) },
      el("span", { class: "move-no", text: `${i + 1}.` }), " ",
      m.events.map((e, j) => el("span", { class: "sentence" }, j ? " " : "", sentence(e, names, layout), "."))))));
  const label = el("span", { id: "at-label", "aria-live": "polite" });
  const slider = el("input", { type: "range", min: "1", max: String(head), value: String(head), id: "scrub", "aria-label": "version" });
  const now = el("p", { class: "now", id: "replay-now" });
  const seatsBox = el("section", { class: "seats", id: "replay-seats" });
  const board = el("section", { class: "board", id: "replay-board", "aria-label": "the table at this move" });
  const audit = el("section", { class: "audit", id: "audit" }, el("p", { class: "muted", text: "Checking the audit…" }));
  const button = (text, id, aria, where) => el("button", { type: "button", id, "aria-label": aria, onclick: () => go(where()) }, text);
  const moveIndex = () => moves.findIndex((m) => m.last >= at);
  main.replaceChildren(el("div", { class: "replay-page", "data-game": game.id },
    el("h2", {}, `Replay: ${game.title}`), el("p", { class: "table-meta", text: aboutTable(resource) }),
    el("p", { class: "links" }, el("a", { href: `#/table/${gameId}`, text: "Table" }), over ? " · " : "",
      over ? el("a", { href: `${path}/export`, download: `${gameId}.json`, id: "export-link", text: "Download the export",
        onclick: (event) => { if (token && resource.visibility === "private") { event.preventDefault(); download(`${path}/export`, token, `${gameId}.json`); } } }) : "",
      over ? "" : el("span", { class: "muted", text: " · the game is still on: you see what your seat (or a spectator) may see; every hand shows once it is over." })),
    audit,
    el("div", { class: "scrubber" }, button("« first", "first", "first move", () => 1),
      button("◀ move", "prev", "previous move", () => { const i = moveIndex(); return i > 0 ? moves[i - 1].last : 1; }),
      slider, button("move ▶", "next", "next move", () => { const i = moves.findIndex((m) => m.last > at); return i >= 0 ? moves[i].last : head; }),
      button("last »", "last", "last move", () => head), label),
    el("div", { class: "replay-body" }, el("div", { class: "replay-table" }, now, el("div", { class: "felt" }, seatsBox, board)),
      el("section", { class: "moves-box", "aria-label": "moves" }, el("h3", { text: "Moves" }), list))));
  slider.addEventListener("input", () => go(Number(slider.value)));
  const keys = (event) => {  // arrow keys step by move, as on an analysis board
    if (!document.body.contains(slider)) { document.removeEventListener("keydown", keys); return; }
    if (event.target.tagName === "INPUT" && event.target !== slider) return;
    if (event.key === "ArrowLeft") { event.preventDefault(); document.getElementById("prev").click(); }
    if (event.key === "ArrowRight") { event.preventDefault(); document.getElementById("next").click(); }
  };
  document.addEventListener("keydown", keys);

  let loading = 0;
  async function go(n) {
    at = Math.max(1, Math.min(head, n));
    slider.value = String(at);
    const i = moveIndex();
    label.textContent = `move ${i + 1} of ${moves.length} · version ${at} of ${head}`;
    list.querySelectorAll("li").forEach((li) => li.classList.toggle("current", Number(li.dataset.move) === i));
    const current = list.querySelector("li.current");
    if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
    const ticket = ++loading;
    try {
      const state = await call("GET", `${path}/state`, { token, query: { at } });
      if (ticket !== loading) return;
      const ctx = { view: state.view || {}, seat: mySeat, names, legal: [], toAct: state.to_act || [], over: state.status === "finished", outcome: state.outcome };
      const drawn = state.view && !state.view.open_seats ? layout.table(ctx) : { board: el("p", { class: "muted", text: "Seats are still open." }), seat: () => [], stats: () => [], hand: [] };
      seatsBox.replaceChildren(...seatPanels(drawn, { names, seats: resource.seats, toAct: state.to_act || [], me: ctx.seat,
        winners: state.outcome ? state.outcome.winners || [] : [], used: new Set() }));
      board.replaceChildren(drawn.board);
      now.textContent = state.outcome ? `Game over: ${listWords((state.outcome.winners || []).map((s) => names[s])) || "nobody"} won. ${endWords(layout, state.outcome)}`
        : `Waiting on ${(state.to_act || []).map((s) => names[s]).join(" and ") || "nobody"}${drawn.phase ? ` (${drawn.phase})` : ""}.`;
      board.dataset.version = String(at);
    } catch (err) {
      toast(err.message, "error");
    }
  }
  go(head);

  try {
    const verdict = await call("GET", `/v1/games/${encodeURIComponent(gameId)}/audit`);
    const line = (name, ok, text) => el("li", { class: ok === true ? "ok" : ok === false ? "bad" : "muted", "data-check": name },
      `${ok === true ? "✔" : ok === false ? "✘" : "…"} ${text}`);
    audit.replaceChildren(el("h3", { text: "Audit" }), el("ul", {},
      line("chain", verdict.chain_ok, `Hash chain of ${verdict.events} events ${verdict.chain_ok ? "holds" : "is broken"} (head ${String(verdict.head_hash).slice(0, 16)}…)`),
      line("seed", over ? await seedMatches(resource) : null, over ? `Seed revealed: ${resource.seed}; sha256 checked here against the commitment ${resource.seed_commitment}` : `Seed commitment ${resource.seed_commitment} (the seed is revealed at the end)`),
      line("replay", verdict.replay_ok, verdict.replay_ok === null ? "Re-decision: available once the game is over"
        : verdict.replay_ok ? "Re-decision: every command re-decided from the revealed seed gives the same events" : "Re-decision FAILED"),
      verdict.first_divergence ? el("li", { class: "bad", text: "First divergence: " + JSON.stringify(verdict.first_divergence) }) : null),
      el("p", { class: "verdict", id: "verdict", text: verdict.chain_ok && verdict.replay_ok && (await seedMatches(resource)) !== false ? "VERIFIED" : verdict.replay_ok === null ? "IN PROGRESS" : "NOT VERIFIED" }));
  } catch (err) {
    audit.replaceChildren(el("p", { class: "bad", text: "Audit unavailable: " + err.message }));
  }
}

// A private table's export needs the seat's Authorization header, which a plain link cannot send.
async function download(url, token, name) {
  try {
    const record = await call("GET", url, { token });
    const link = el("a", { href: URL.createObjectURL(new Blob([JSON.stringify(record)], { type: "application/json" })), download: name });
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  } catch (err) {
    toast(err.message, "error");
  }
}

// A move: the events one command wrote (one batch: the same moment, the same seat and the same kind of cause).
function groupMoves(events) {
  const moves = [];
  for (const e of events) {
    const last = moves[moves.length - 1];
    if (last && last.at === e.at && last.seat === e.seat && last.by === e.by) { last.events.push(e); last.last = e.version; }
    else moves.push({ at: e.at, seat: e.seat, by: e.by, events: [e], last: e.version });
  }
  return moves;
}
