// The page's entry point: a hash router over the lobby, a table (play or watch), a replay, a player's profile and a
// game's leaderboard (places.js).

import { call, catalog, followMine, store } from "./api.js";
import { el, human, profileLink } from "./render.js";
import { tablePage } from "./table.js";
import { defaultAiLevel } from "./games.js";
import { replayPage } from "./replay.js";
import { leaderboardPage, onPlayerMessage, profilePage, quickPlayPanel } from "./places.js";
import { toast } from "./toast.js";

export { toast };  // the pages import it from toast.js: one imported from here would close an import circle

const main = () => document.getElementById("main");

async function lobby(root) {
  const games = await catalog();
  const ids = Object.keys(games);
  const gameSelect = el("select", { id: "game" }, ids.map((id) => el("option", { value: id, text: games[id].title })));
  const nameInput = el("input", { id: "name", form: "create-form", value: store.name() || "Ada", maxlength: "40", required: true, autocomplete: "nickname" });
  const seatsBox = el("div", { id: "seats" });
  const optionsBox = el("div", { id: "options" });
  const timeout = el("input", { id: "timeout", type: "number", min: "0", max: "86400", value: "0" });

  // Each other seat: an AI of one of the catalogue's levels, a person you send a link, or an open seat.
  function seatRow(n) {
    const levels = games[gameSelect.value].ai_levels || ["random"];
    const kind = el("select", { class: "seat-kind", "data-seat": n, id: `seat-kind-${n}` },
      levels.map((level) => el("option", { value: "ai:" + level, text: `AI, ${level}`, selected: level === defaultAiLevel(levels) })),
      el("option", { value: "human", text: "Another player (share a link)" }),
      el("option", { value: "open", text: "Open seat (anyone may join)" }));
    return el("div", { class: "seat-row" }, el("label", { for: `seat-kind-${n}`, text: `Seat ${n + 1}: ` }), kind);
  }
  function drawSeats() {
    const game = games[gameSelect.value];
    const count = Number(countSelect.value);
    seatsBox.replaceChildren(el("div", { class: "seat-row" }, el("span", { text: "Seat 1: you" })));
    for (let n = 1; n < count; n++) seatsBox.append(seatRow(n));
    optionsBox.replaceChildren(...Object.entries(game.options || {}).map(([name, spec]) => {
      let input;
      if (spec.type === "bool") input = el("input", { type: "checkbox", "data-option": name, checked: spec.default === true });
      else if (spec.choices) input = el("select", { "data-option": name }, spec.choices.map((c) => el("option", { value: c, text: human(c), selected: c === spec.default })));
      else input = el("input", { "data-option": name, value: spec.default ?? "", type: spec.type === "int" ? "number" : "text" });
      return el("label", { class: "option", title: spec.description || "" }, input, " " + human(name));
    }));
  }
  const countSelect = el("select", { id: "players" });
  function drawCounts() {
    const game = games[gameSelect.value];
    countSelect.replaceChildren();
    for (let n = game.min_players; n <= game.max_players; n++) countSelect.append(el("option", { value: n, text: `${n} players`, selected: n === Math.max(game.min_players, Math.min(3, game.max_players)) }));
    drawSeats();
  }
  gameSelect.addEventListener("change", drawCounts);
  countSelect.addEventListener("change", drawSeats);
  drawCounts();

  async function create(event) {
    event.preventDefault();
    store.setName(nameInput.value);
    const game = games[gameSelect.value];
    const seats = [store.playerKey() ? { me: true } : { name: nameInput.value }];
    seatsBox.querySelectorAll(".seat-kind").forEach((select) => {
      const n = Number(select.dataset.seat);
      if (select.value.startsWith("ai")) seats.push({ name: `Bot ${n}`, ai: select.value.split(":")[1] || "random" });
      else if (select.value === "open") seats.push({ open: true });
      else seats.push({ name: `Player ${n + 1}` });
    });
    const options = {};
    optionsBox.querySelectorAll("[data-option]").forEach((input) => {
      const spec = game.options[input.dataset.option];
      options[input.dataset.option] = spec.type === "bool" ? input.checked : spec.type === "int" ? Number(input.value) : input.value;
    });
    const body = { game: game.id, seats, options };
    if (Number(timeout.value) > 0) body.turn_timeout_s = Number(timeout.value);
    if (privateBox.checked) body.visibility = "private";
    try {
      const created = await call("POST", "/v1/games", { body, token: store.playerKey() || undefined });
      let mine = null;
      if (store.playerKey()) { store.saveToken(created.id, 0, store.playerKey()); mine = 0; }  // the key acts for our seat
      for (const seat of created.seats) {
        if (seat.token) { store.saveToken(created.id, seat.seat, seat.token); if (mine === null) mine = seat.seat; }
      }
      const others = created.seats.filter((s) => s.token && s.seat !== mine);
      if (others.length || created.invite) {  // what is shown once stays on screen until you leave for the table
        root.replaceChildren(el("h2", { text: "Table created" }),
          created.invite ? el("p", {}, "A private table: whoever joins needs its invite code, ", el("code", { class: "invite", id: "invite-code", text: created.invite }), ".") : null,
          others.length ? el("p", { text: "Send each other player their own link (it carries their seat's secret token):" }) : null,
          others.length ? el("ul", {}, others.map((s) => el("li", {}, `${s.name}: `, el("code", { class: "invite", text: `${location.origin}/#/claim/${created.id}/${s.seat}/${s.token}` })))) : null,
          el("p", {}, el("a", { href: `#/table/${created.id}/${mine ?? ""}`, id: "go-table", text: "Go to your table" })));
      } else {
        location.hash = `#/table/${created.id}/${mine ?? ""}`;
      }
    } catch (err) {
      toast(err.message, "error");
    }
  }

  async function join(event) {
    event.preventDefault();
    const gameId = joinId.value.trim();
    if (!gameId) return;
    try {
      const body = store.playerKey() ? {} : { name: nameInput.value };
      if (joinInvite.value.trim()) body.invite = joinInvite.value.trim();
      const answer = await call("POST", `/v1/games/${encodeURIComponent(gameId)}/join`, { body, token: store.playerKey() || undefined });
      store.saveToken(gameId, answer.seat, answer.token || store.playerKey());
      location.hash = `#/table/${gameId}/${answer.seat}`;
    } catch (err) {
      toast(err.message, "error");
    }
  }
  const joinId = el("input", { id: "join-id", placeholder: "game id, e.g. g_…", "aria-label": "game id to join" });
  const joinInvite = el("input", { id: "join-invite", placeholder: "invite code (private tables)", "aria-label": "invite code" });
  const privateBox = el("input", { type: "checkbox", id: "private" });
  async function makePlayer() {
    try {
      const player = await call("POST", "/v1/players", { body: { name: nameInput.value, bot: false } });
      store.setName(player.name);
      store.setPlayerKey(player.key);
      toast(`You are now the player ${player.name}: this browser keeps your key.`);
      route();
    } catch (err) { toast(err.message, "error"); }
  }
  const playerLine = store.playerKey()
    ? el("p", { class: "muted", id: "player-line", text: `You play as a player (${store.name()}); your key stays in this browser.` })
    : el("p", {}, el("button", { type: "button", id: "make-player", onclick: makePlayer, text: "Make me a player with this name" }),
        el("span", { class: "muted", text: " (optional: one key for all your seats and tables)" }));
  const watchId = el("input", { id: "watch-id", placeholder: "game id", "aria-label": "game id to watch" });

  const mine = el("ul", { id: "my-games" }, store.games().slice(0, 12).map((id) => storedTable(id, games)));
  const listBox = el("div", { id: "tables" }, el("p", { class: "muted", text: "Loading tables…" }));
  root.replaceChildren(
    ...(store.playerKey() ? [quickPlayPanel(games, toast)] : []),
    el("section", { class: "panel" }, el("h2", { text: "Open a table" }),
      el("label", {}, "Your name ", nameInput),
      playerLine,
      el("form", { id: "create-form", onsubmit: create },
        el("label", {}, "Game ", gameSelect), el("label", {}, "Players ", countSelect),
        seatsBox, optionsBox, el("label", {}, "Turn timeout (s, 0 = none) ", timeout),
        el("label", {}, privateBox, " Private (joining needs the invite code)"),
        el("button", { type: "submit", id: "create", text: "Open the table" }))),
    el("section", { class: "panel" }, el("h2", { text: "Join or watch" }),
      el("form", { id: "join-form", onsubmit: join }, joinId, joinInvite, el("button", { type: "submit", id: "join", text: "Join an open seat" })),
      el("form", { id: "watch-form", onsubmit: (e) => { e.preventDefault(); location.hash = `#/table/${watchId.value.trim()}/watch`; } },
        watchId, el("button", { type: "submit", id: "watch", text: "Watch" })),
      listBox),
    ...(store.playerKey() ? [el("section", { class: "panel" }, el("h2", { text: "Your tables, live" }),
      el("ul", { id: "live-tables" }, el("li", { class: "muted", text: "Connecting…" })),
      el("h3", { text: "Invitations" }), el("ul", { id: "invitations" }))] : []),
    el("section", { class: "panel" }, el("h2", { text: "Your tables in this browser" }), mine));
  loadTables(listBox);
  if (store.playerKey()) followMyTables(store.playerKey(), games);
}

// A table this browser holds a seat at, named by its game and where it stands (read with the seat's own
// credential), never by its id: players read names and sentences.
function storedTable(id, games) {
  const link = el("a", { href: `#/table/${id}`, text: "A table" });
  const state = el("span", { class: "muted" });
  const token = Object.values(store.tokens(id))[0] || store.playerKey() || undefined;
  call("GET", `/v1/games/${encodeURIComponent(id)}`, { token }).then((game) => {
    link.textContent = (games[game.game] || {}).title || "A table";
    state.textContent = ` · ${human(game.status || "")}`;
  }).catch(() => { state.textContent = " · no longer on this server"; });
  return el("li", {}, link, state, " · ", el("a", { href: `#/replay/${id}`, text: "replay" }));
}

// The player's tables from its own stream (GET /v1/me/stream): where each stands and whether it waits on you.
// Followed while the lobby is shown; the player's key is the seat's credential at each of them. Invitations (a
// seat kept for the player at someone else's table) are listed apart and only the newest few at first, so however
// many a stranger sends, the player's own tables stay in view; nor are they kept among this browser's tables.
const INVITATIONS_SHOWN = 10;
let mineStream = null;
function followMyTables(key, games) {
  const tables = new Map();
  let allInvitations = false;
  const row = (t) => el("li", { class: "live-table" + (t.your_turn ? " your-turn" : ""), "data-game": t.game },
    el("a", { href: `#/table/${t.game}/${t.seat ?? ""}`, text: (games[t.type] || {}).title || t.type || "a table" }),
    ` · ${human(t.status || "")}${t.seat !== null && t.seat !== undefined ? ` · seat ${t.seat + 1}` : ""}`,
    t.your_turn ? el("strong", { class: "turn-badge", text: " · your turn" }) : "");
  const draw = () => {
    const own = document.getElementById("live-tables");
    const invites = document.getElementById("invitations");
    if (!own || !invites) return;
    const all = [...tables.values()];
    const mine = all.filter((t) => !t.invited);
    const asked = all.filter((t) => t.invited).reverse();  // the newest first
    const shown = allInvitations ? asked : asked.slice(0, INVITATIONS_SHOWN);
    own.replaceChildren(...(mine.length ? mine.map(row) : [el("li", { class: "muted", text: "No tables of yours are running." })]));
    invites.replaceChildren(...(shown.length ? shown.map(row) : [el("li", { class: "muted", text: "No invitations." })]),
      ...(asked.length > shown.length ? [el("li", { id: "more-invitations" }, el("button", { type: "button", class: "link-button",
        onclick: () => { allInvitations = true; draw(); }, text: `Show ${asked.length - shown.length} more invitation${asked.length - shown.length === 1 ? "" : "s"}` }))] : []));
  };
  const keep = (t) => {
    const known = { ...(tables.get(t.game) || {}), ...t };
    tables.set(t.game, known);
    const seated = !known.invited && known.seat !== null && known.seat !== undefined;
    if (seated && !(known.seat in store.tokens(known.game))) store.saveToken(known.game, known.seat, key);
  };
  mineStream = followMine(key, (type, data) => {
    if (type === "tables") { tables.clear(); data.tables.forEach(keep); }
    else if (type === "invited") keep({ ...data, status: "waiting", invited: true });
    else if (type === "game_started") keep({ ...data, status: "active", invited: false });
    else if (type === "your_turn") {
      keep({ game: data.game, seat: data.seat, your_turn: true, invited: false });
      if (!document.hidden) toast(`Your turn at ${(games[(tables.get(data.game) || {}).type] || {}).title || "a table"}`);
    } else if (type === "game_finished") tables.delete(data.game);
    else if (onPlayerMessage(type, data)) return;  // quick play seated the player: to its table
    else return;
    draw();
  }, (err) => toast(err.message, "error"));
}

// The public tables by status, newest first. The listing may answer a short page with a `next` cursor (it passes
// over at most so many private or moved-on tables per request): the lobby follows it until it has a page's worth or
// has asked a few times, then offers the rest behind a button, so private tables cannot hide the public ones.
const LISTED = 10;
const PAGES_PER_LOOK = 5;
async function listed(status, cursor) {
  const games = [];
  for (let asked = 0; asked < PAGES_PER_LOOK && games.length < LISTED; asked++) {
    const query = { status, limit: LISTED - games.length };
    if (cursor) query.cursor = cursor;
    const page = await call("GET", "/v1/games", { query });
    games.push(...(page.games || []));
    cursor = page.next || null;
    if (!cursor) break;
  }
  return { games, cursor };
}

async function loadTables(box) {
  const games = await catalog();
  const who = (g) => (g.seats || []).flatMap((s, i) => [i ? ", " : "",
    s.open ? "open seat" : s.ai ? `${s.name} (AI, ${s.ai})` : profileLink(s.player, s.name), s.bot ? " (bot)" : ""]);
  const about = (g) => [g.host ? `hosted by ${g.host.name}` : "", g.turn_timeout_s ? `${g.turn_timeout_s} s a turn` : "",
    g.watchers ? `${g.watchers} watching` : ""].filter(Boolean).join(" · ");
  const row = (g) => el("li", {}, `${(games[g.game] || {}).title || g.game}: `, ...who(g), " ", el("span", { class: "table-meta", text: about(g) }), " · ",
    el("a", { href: `#/table/${g.id}/watch`, text: "watch" }), " · ",
    g.status === "finished" ? el("a", { href: `#/replay/${g.id}`, text: "replay" })
      : g.status === "waiting" ? el("a", { href: `#/table/${g.id}/watch`, class: "join-link", "data-game": g.id, text: "join" }) : "");
  const lists = [];
  for (const status of ["waiting", "active", "finished"]) {
    try {
      const first = await listed(status, null);
      if (!first.games.length && !first.cursor) continue;
      const list = el("ul", { "data-status": status }, first.games.map(row));
      const more = el("button", { type: "button", class: "more-tables", "data-status": status, text: `More ${human(status).toLowerCase()} tables` });
      let cursor = first.cursor;
      more.classList.toggle("hidden", !cursor);
      more.addEventListener("click", async () => {
        try {
          const next = await listed(status, cursor);
          list.append(...next.games.map(row));
          cursor = next.cursor;
          more.classList.toggle("hidden", !cursor);
        } catch (err) { toast(err.message, "error"); }
      });
      lists.push(el("h4", { text: human(status) }), list, more);
    } catch (err) { /* a status this server does not list yet */ }
  }
  box.replaceChildren(...(lists.length ? lists : [el("p", { class: "muted", text: "No tables yet." })]));
}

// A claim link (#/claim/<game>/<seat>/<token>, sent by whoever opened the table) keeps the seat's token in this
// browser and opens the table; the token leaves the address bar and the history at once. A seat token is shown
// only once, so a link never silently replaces another token held for the same seat: the page asks, and a token
// replaced is kept aside (store.saveToken), never dropped.
function claim(root, gameId, seat, token) {
  const table = `#/table/${encodeURIComponent(gameId)}/${seat}`;
  const held = store.tokens(gameId)[seat];
  if (!held || held === token) {
    store.saveToken(gameId, seat, token);
    location.replace(table);
    return;
  }
  history.replaceState(null, "", table);  // out of the address bar and the history; the question stays on screen
  const choose = (replace) => { if (replace) store.saveToken(gameId, seat, token); route(); };
  root.replaceChildren(el("section", { class: "panel", id: "claim-question" },
    el("h2", { text: "You already hold this seat in this browser" }),
    el("p", { text: `This browser keeps a seat token for seat ${seat + 1} at this table, and the link you opened carries a different one. ` +
      "A seat token is shown only once: keep the one you hold unless you know the link's is the right one." }),
    el("p", {}, el("button", { type: "button", id: "claim-keep", onclick: () => choose(false), text: "Keep the token I hold" }), " ",
      el("button", { type: "button", id: "claim-replace", onclick: () => choose(true), text: "Use the link's token (the one I hold is kept aside)" }))));
}

async function route() {
  if (mineStream) { mineStream.stop(); mineStream = null; }
  const root = main();
  window.scrollTo(0, 0);  // a new page starts at its top, wherever the last one was scrolled to
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  root.replaceChildren(el("p", { class: "muted", text: "Loading…" }));
  document.getElementById("who").textContent = store.name() ? `Playing as ${store.name()}` : "";
  try {
    if (parts[0] === "table" && parts[1]) {
      await tablePage(root, parts[1], parts[2] === "watch" ? "watch" : parts[2] !== undefined && parts[2] !== "" ? Number(parts[2]) : null);
    } else if (parts[0] === "replay" && parts[1]) {
      await replayPage(root, parts[1]);
    } else if (parts[0] === "player" && parts[1]) {
      await profilePage(root, parts[1]);
    } else if (parts[0] === "leaderboard") {
      await leaderboardPage(root, parts[1] || Object.keys(await catalog())[0], parts[2] === "bots" ? "bots" : "humans");
    } else if (parts[0] === "claim" && parts[3]) {
      claim(root, parts[1], Number(parts[2]), parts[3]);
    } else {
      await lobby(root);
    }
  } catch (err) {
    root.replaceChildren(el("p", { class: "bad", text: err.message }), el("p", {}, el("a", { href: "#/", text: "Back to the lobby" })));
  }
}

window.addEventListener("hashchange", () => {
  document.getElementById("toast").classList.add("hidden");  // a message about the page left behind goes with it
  route();
});
route();
