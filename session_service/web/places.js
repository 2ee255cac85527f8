// The places people come back to: quick play in the lobby, a player's profile and a game's leaderboard.
// All of it from the public API (POST/DELETE /v1/seeks, the player's stream's `matched`, GET /v1/players/{id},
// GET /v1/leaderboards/{game}).

import { call, catalog, store } from "./api.js";
import { el, human, profileLink } from "./render.js";

const PAGE = 20;
const RATINGS_HOW = "Ratings use OpenSkill's Weng–Lin model (Plackett–Luce): each rated game moves every player's " +
  "skill estimate (mu) and its uncertainty (sigma), winners above the rest, shared victories and equal scores tied, " +
  "a resignation last; abandoned games count for nobody. Leaderboards rank by mu − 3·sigma, so a rating climbs as it " +
  "grows more certain. Only tables opened as rated, where every person is a player, count, and no private table ever " +
  "does. Every finished game's export carries the algorithm, so anyone can recompute these numbers: download the " +
  "exports of the games below (each replay has its export) and run `mythos ratings DIR`.";

const fmt = (x) => (Math.round(x * 10) / 10).toFixed(1);
const whenOf = (iso) => new Date(iso).toLocaleString();

// -- quick play ----------------------------------------------------------------------------------------
let waiting = null;  // the seek this page waits on: {id, timer}

export function quickPlayPanel(games, toast) {
  const ids = Object.keys(games);
  const gameSelect = el("select", { id: "quick-game", "aria-label": "game for quick play" },
    ids.map((id) => el("option", { value: id, text: games[id].title })));
  const seatsSelect = el("select", { id: "quick-seats", "aria-label": "seats" });
  const drawSeats = () => {
    const game = games[gameSelect.value];
    seatsSelect.replaceChildren(el("option", { value: "", text: "Any number of players" }));
    for (let n = Math.max(2, game.min_players); n <= game.max_players; n++) seatsSelect.append(el("option", { value: n, text: `${n} players` }));
  };
  gameSelect.addEventListener("change", drawSeats);
  drawSeats();
  const rated = el("input", { type: "checkbox", id: "quick-rated" });
  const fill = el("input", { type: "checkbox", id: "quick-fill", checked: true });
  const status = el("p", { id: "quick-status", class: "muted", role: "status", text: "" });
  const cancel = el("button", { type: "button", id: "quick-cancel", class: "hidden", text: "Cancel" });
  const find = el("button", { type: "submit", id: "quick-find", text: "Find a game" });

  const idle = (text) => {
    if (waiting) clearInterval(waiting.timer);
    waiting = null;
    status.textContent = text;
    cancel.classList.add("hidden");
    find.disabled = false;
  };
  async function seek(event) {
    event.preventDefault();
    const body = { game: gameSelect.value, rated: rated.checked };
    if (seatsSelect.value) body.seats = Number(seatsSelect.value);
    if (fill.checked) body.ai_fill_after_s = 60;
    try {
      const made = await call("POST", "/v1/seeks", { body, token: store.playerKey() });
      const since = Date.now();
      find.disabled = true;
      cancel.classList.remove("hidden");
      const tick = () => {
        const s = Math.floor((Date.now() - since) / 1000);
        status.textContent = `Looking for players for ${games[made.game].title}… ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` +
          (made.pool_size > 1 ? ` · ${made.pool_size - 1} other${made.pool_size === 2 ? "" : "s"} waiting` : "") +
          (fill.checked ? " · AI players fill the table after a minute" : "");
      };
      waiting = { id: made.id, timer: setInterval(tick, 1000) };
      tick();
    } catch (err) { toast(err.message, "error"); }
  }
  cancel.addEventListener("click", async () => {
    if (!waiting) return;
    try {
      await call("DELETE", `/v1/seeks/${encodeURIComponent(waiting.id)}`, { token: store.playerKey() });
      idle("Cancelled.");
    } catch (err) { idle(err.message); }
  });
  return el("section", { class: "panel", id: "quick-play" }, el("h2", { text: "Quick play" }),
    el("form", { id: "quick-form", onsubmit: seek },
      el("label", {}, "Game ", gameSelect), el("label", {}, "Players ", seatsSelect),
      el("label", {}, rated, " Rated"), el("label", {}, fill, " Let AI players fill in after a minute"),
      el("span", { class: "quick-buttons" }, find, cancel)), status);
}

// The player's stream said `matched`: to the new table, where the player's key holds its seat.
export function onPlayerMessage(type, data) {
  if (type !== "matched") return false;
  if (waiting) clearInterval(waiting.timer);
  waiting = null;
  store.saveToken(data.game, data.seat, store.playerKey());
  location.hash = `#/table/${encodeURIComponent(data.game)}/${data.seat}`;
  return true;
}

// -- a player's profile ----------------------------------------------------------------------------------
export async function profilePage(root, playerId) {
  const games = await catalog();
  const titleOf = (id) => (games[id] || {}).title || human(id);
  const profile = await call("GET", `/v1/players/${encodeURIComponent(playerId)}`, { query: { limit: PAGE } });
  const ratings = profile.ratings.length
    ? el("table", { class: "ratings", id: "profile-ratings" },
      el("thead", {}, el("tr", {}, ["Game", "Rating", "Skill (mu)", "Uncertainty (sigma)", "Rated games"].map((h, i) => el("th", { text: h, class: i === 2 || i === 3 ? "extra" : null })))),
      el("tbody", {}, profile.ratings.map((r) => el("tr", {},
        el("td", {}, el("a", { href: `#/leaderboard/${encodeURIComponent(r.game)}`, text: titleOf(r.game) })),
        el("td", { text: fmt(r.ordinal) }), el("td", { class: "extra", text: fmt(r.mu) }), el("td", { class: "extra", text: fmt(r.sigma) }),
        el("td", { text: String(r.games) })))))
    : el("p", { class: "muted", id: "profile-ratings", text: "No rated games yet." });
  const list = el("ul", { class: "history", id: "profile-history" });
  const more = el("button", { type: "button", id: "history-more", class: "hidden", text: "Older games" });
  const line = (g) => {
    const me = g.seats.find((s) => s.player === profile.id);
    const result = g.status !== "finished" ? human(g.status) : me && me.won ? "Won" : me && me.resigned ? "Resigned"
      : g.reason === "abandoned" ? "Abandoned" : me ? `Place ${me.place + 1}` : "Played";
    const others = g.seats.filter((s) => s !== me);
    return el("li", { class: "history-game", "data-game": g.game_id },
      el("strong", { text: `${result}` }), ` · ${titleOf(g.game)}${g.rated ? " (rated)" : ""} · with `,
      ...others.flatMap((s, i) => [i ? ", " : "", s.ai ? `${s.name} (AI, ${s.ai})` : profileLink(s.player, s.name)]),
      ` · ${whenOf(g.ended_at)} · `, el("a", { href: `#/replay/${encodeURIComponent(g.game_id)}`, text: "replay" }));
  };
  let next = profile.next;
  list.append(...(profile.games.length ? profile.games.map(line) : [el("li", { class: "muted", text: "No finished games yet." })]));
  more.classList.toggle("hidden", !next);
  more.addEventListener("click", async () => {
    const page = await call("GET", `/v1/players/${encodeURIComponent(playerId)}`, { query: { limit: PAGE, cursor: next } });
    list.append(...page.games.map(line));
    next = page.next;
    more.classList.toggle("hidden", !next);
  });
  root.replaceChildren(el("section", { class: "panel profile", id: "profile" },
    el("h2", { text: profile.name + (profile.bot ? " (a bot)" : "") }),
    el("p", { class: "muted", text: `Playing since ${new Date(profile.created_at).toLocaleDateString()}` }),
    el("h3", { text: "Ratings" }), ratings,
    el("h3", { text: "Games" }), list, more,
    el("h3", { text: "How ratings work" }), el("p", { class: "ratings-how", id: "ratings-how", text: RATINGS_HOW })));
}

// -- a game's leaderboard --------------------------------------------------------------------------------
export async function leaderboardPage(root, gameId, pool = "humans") {
  const games = await catalog();
  const choose = el("select", { id: "board-game", "aria-label": "game" }, Object.keys(games).map((id) =>
    el("option", { value: id, text: games[id].title, selected: id === gameId })));
  choose.addEventListener("change", () => { location.hash = `#/leaderboard/${encodeURIComponent(choose.value)}/${pool}`; });
  const pools = el("select", { id: "board-pool", "aria-label": "players or bots" },
    el("option", { value: "humans", text: "People", selected: pool === "humans" }),
    el("option", { value: "bots", text: "Bots and AI levels", selected: pool === "bots" }));
  pools.addEventListener("change", () => { location.hash = `#/leaderboard/${encodeURIComponent(choose.value)}/${pools.value}`; });
  const body = el("tbody");
  const more = el("button", { type: "button", id: "board-more", class: "hidden", text: "More" });
  const row = (e) => el("tr", {}, el("td", { text: String(e.rank) }),
    el("td", {}, e.ai ? `${e.name}` : profileLink(e.player, e.name)),
    el("td", { text: fmt(e.ordinal) }), el("td", { class: "extra", text: fmt(e.mu) }), el("td", { class: "extra", text: fmt(e.sigma) }),
    el("td", { text: String(e.games) }));
  const board = await call("GET", `/v1/leaderboards/${encodeURIComponent(gameId)}`, { query: { pool, limit: 50 } });
  let next = board.next;
  body.append(...board.entries.map(row));
  more.classList.toggle("hidden", !next);
  more.addEventListener("click", async () => {
    const page = await call("GET", `/v1/leaderboards/${encodeURIComponent(gameId)}`, { query: { pool, limit: 50, cursor: next } });
    body.append(...page.entries.map(row));
    next = page.next;
    more.classList.toggle("hidden", !next);
  });
  root.replaceChildren(el("section", { class: "panel leaderboard", id: "leaderboard" },
    el("h2", { text: `${(games[gameId] || {}).title || human(gameId)}: leaderboard` }),
    el("p", {}, el("label", {}, "Game ", choose), " ", el("label", {}, "Board ", pools)),
    board.entries.length
      ? el("table", { class: "ratings", id: "board" },
        el("thead", {}, el("tr", {}, ["#", "Player", "Rating", "Skill (mu)", "Uncertainty (sigma)", "Rated games"].map((h, i) =>
          el("th", { text: h, class: i === 3 || i === 4 ? "extra" : null })))), body)
      : el("p", { class: "muted", id: "board", text: `Nobody has played ${board.min_games} rated games of it yet.` }),
    more,
    el("p", { class: "muted", text: `Entries with at least ${board.min_games} rated games, ranked by mu − 3·sigma. ` +
      "A player's page says how ratings work." })));
}
