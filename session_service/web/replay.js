// The replay of a game: every version (GET /state?at=N), every hand once the game is over, the audit verdict
// and the export. While the game is on, the same viewer steps through what the caller may see.

import { call, catalog, store } from "./api.js";
import { el, human, Renderer } from "./render.js";
import { toast } from "./app.js";

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
  const [games, resource] = await Promise.all([catalog(), call("GET", `/v1/games/${encodeURIComponent(gameId)}`)]);
  const game = games[resource.game];
  const over = resource.status === "finished";
  const tokens = store.tokens(gameId);
  const token = over ? null : Object.values(tokens)[0] || null;  // once over, everyone sees everything
  const renderer = new Renderer(game, resource.seats);
  const events = await allEvents(gameId, token);
  const head = resource.version;
  let at = head;

  const slider = el("input", { type: "range", min: "1", max: String(head), value: String(head), id: "scrub", "aria-label": "version" });
  const label = el("span", { id: "at-label" });
  const board = el("section", { class: "board", id: "replay-board" });
  const eventBox = el("div", { class: "event-at", id: "event-at" });
  const audit = el("section", { class: "audit", id: "audit" }, el("p", { class: "muted", text: "Checking the audit…" }));
  const button = (text, id, delta) => el("button", { id, onclick: () => go(delta === null ? head : delta === 0 ? 1 : at + delta) }, text);
  main.replaceChildren(el("div", { class: "replay-page", "data-game": game.id },
    el("h2", {}, `Replay: ${game.title} `, el("small", { text: gameId })),
    el("p", { class: "links" }, el("a", { href: `#/table/${gameId}`, text: "Table" }), over ? " · " : "",
      over ? el("a", { href: `/v1/games/${encodeURIComponent(gameId)}/export`, download: `${gameId}.json`, id: "export-link", text: "Download the export" }) : "",
      over ? "" : el("span", { class: "muted", text: " · the game is still on: you see what your seat (or a spectator) may see; every hand shows once it is over." })),
    el("p", { class: "seats" }, "Seats: ", resource.seats.map((s, n) => renderer.seatName(n) + (s.ai ? ` (AI ${s.ai})` : "")).join(", ")),
    audit,
    el("div", { class: "scrubber" }, button("« first", "first", 0), button("◀", "prev", -1), slider, button("▶", "next", 1), button("last »", "last", null), label),
    eventBox, board));
  slider.addEventListener("input", () => go(Number(slider.value)));
  const keys = (event) => {  // arrow keys step, as on an analysis board
    if (!document.body.contains(slider)) { document.removeEventListener("keydown", keys); return; }
    if (event.target.tagName === "INPUT" && event.target !== slider) return;
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") { event.preventDefault(); go(at + (event.key === "ArrowLeft" ? -1 : 1)); }
  };
  document.addEventListener("keydown", keys);

  let loading = 0;
  async function go(n) {
    at = Math.max(1, Math.min(head, n));
    slider.value = String(at);
    label.textContent = `version ${at} of ${head}`;
    const event = events.find((e) => e.version === at);
    eventBox.replaceChildren(event ? el("p", {}, el("b", { text: `${at}. ${human(event.type)}` }),
      event.seat === null || event.seat === undefined ? "" : ` by ${renderer.seatName(event.seat)}`,
      el("code", { text: " " + JSON.stringify(event.data).slice(0, 400) })) : "");
    const ticket = ++loading;
    try {
      const state = await call("GET", `/v1/games/${encodeURIComponent(gameId)}/state`, { token, query: { at } });
      if (ticket !== loading) return;
      board.replaceChildren(renderer.scoreboard(state.view, state.to_act || [], null), renderer.object(state.view, ""));
      board.dataset.version = String(at);
    } catch (err) {
      toast(err.message);
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
