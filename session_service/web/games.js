// Each game's table layout, by game id: one module per game (game-<id>.js; every game has one:
// tests/unit/test_web_client_files.py), built from the seat's view and the catalogue's card data.

import { el, profileLink } from "./render.js";
import { listWords } from "./cards.js";
import { makeGame as pocketMadness } from "./game-pocket-madness.js";
import { makeGame as arkhamRitual } from "./game-arkham-ritual.js";
import { makeGame as riseOfCthulhu } from "./game-rise-of-cthulhu.js";
import { makeGame as greatOldOne } from "./game-great-old-one.js";
import { makeGame as ritesOfCthulhu } from "./game-rites-of-cthulhu.js";

const LAYOUTS = {
  "pocket-madness": pocketMadness, "arkham-ritual": arkhamRitual, "rise-of-cthulhu": riseOfCthulhu,
  "great-old-one": greatOldOne, "rites-of-cthulhu": ritesOfCthulhu,
};

// The seats' panels, in turn order from the seat after yours (at the end from yours: every hand face up, your own
// first): name (a player's linking to their profile), AI level, the game's numbers, backs and public cards; marked
// when the game waits on them or they won; a "Choose" button when a move targets the seat.
export function seatPanels(drawn, { names, seats, toAct, me, winners, used, over = false }) {
  const order = [...seats.keys()];
  const start = me === null ? 0 : over ? me : me + 1;
  order.sort((a, b) => ((a - start + order.length) % order.length) - ((b - start + order.length) % order.length));
  return order.map((s) => {
    const info = seats[s] || {};
    const waited = toAct.includes(s);
    const won = winners.includes(s);
    return el("article", { class: ["seat-panel", waited ? "waiting" : "", s === me ? "mine" : "", won ? "winner" : ""].join(" "), "data-seat": s, "aria-label": names[s] },
      el("header", { class: "seat-head" },
        el("span", { class: "seat-name" }, profileLink(info.player, names[s]), s === me ? " (you)" : ""),
        info.ai ? el("span", { class: "tag ai", text: `AI · ${info.ai}` }) : null,
        info.bot ? el("span", { class: "tag bot", title: "a bot account: a program plays this seat", text: "bot" }) : null,
        info.resigned ? el("span", { class: "tag", text: "resigned" }) : null,
        waited ? el("span", { class: "tag turn", text: "▶ to act" }) : null,
        won ? el("span", { class: "tag win", text: "★ winner" }) : null,
        used.has(`seat:${s}`) ? el("button", { type: "button", class: "seat-target", "data-key": `seat:${s}`, text: `Choose ${names[s]}` }) : null),
      el("div", { class: "seat-stats" }, drawn.stats(s)),
      el("div", { class: "seat-cards" }, drawn.seat(s)));
  });
}

// A table told apart by what players know it by: who hosts it and who sits at it (never its id).
export function aboutTable(resource) {
  const r = resource || {};
  const seats = r.seats || [];
  const who = seats.map((s) => s.open ? "an open seat" : (s.name || "a guest") + (s.ai ? " (AI)" : s.bot ? " (bot)" : ""));
  return [`Hosted by ${(r.host || {}).name || "a guest"}`, `${seats.length} seats: ${listWords(who)}`,
    r.turn_timeout_s ? `${r.turn_timeout_s} s a turn` : "", r.visibility === "private" ? "private table" : "",
    r.rematch_of ? "a rematch" : ""].filter(Boolean).join(" · ");
}

// Why a game ended, as a sentence: the table's own ends, else the game's (its layout's ``reason``); never the
// outcome's enum value.
const TABLE_ENDS = {
  resignation: "Every other seat resigned.",
  abandoned: "The table was abandoned: nobody moved for too long.",
};
export function endWords(layout, outcome) {
  const o = outcome || {};
  return TABLE_ENDS[o.reason] || (layout.reason ? layout.reason(o) : "") || "The game reached its end.";
}

// The AI level a seat gets unless one is chosen, the same in the lobby and at a table's "Start now": the second
// level the game offers (the first, random, plays no game a person learns from).
export function defaultAiLevel(levels) {
  return levels[Math.min(1, levels.length - 1)];
}

export function layoutFor(game) {
  return LAYOUTS[game.id](game);
}
