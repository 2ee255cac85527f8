// Rise of Cthulhu's table: the four Locations, each with both players' Cultists on their own side, the points
// there, whom it faces and the Old One woken on it; the Valley with its face-up card, the Dark Hunter, the draw
// piles and where the Old Ones wait in the Cultist Deck; each player's points, Locations and hand by kind.

import { el } from "./render.js";
import { cardEl, pileEl, row, stat, zone } from "./cards.js";

const COLOURS = { green: "♣", blue: "♦", red: "♥", yellow: "★", purple: "♠" };
const KIND_GLYPH = { monster: "☣", artifact: "✦", old_one: "♆", location: "⌂" };

const counted = (n, what) => `${n || 0} ${what}${n === 1 ? "" : "s"}`;

export function makeGame(game) {
  const data = game.card_data || {};
  const all = {};
  for (const group of ["locations", "cultists", "old_ones", "monsters", "artifacts"]) Object.assign(all, data[group] || {});
  const nameOf = (id) => {
    const c = all[id];
    if (!c) return id === "old-one" ? "an Old One" : String(id);
    return c.name || `${cap(c.colour)} ${c.number}`;
  };
  const card = (id, extra = {}) => {
    const c = all[id] || {};
    if (c.kind === "cultist") return { name: `${cap(c.colour)} ${c.number}`, value: c.number, suit: { glyph: COLOURS[c.colour] || "◆", name: `${c.colour} cultist`, cls: "colour-" + c.colour }, ...extra };
    return { name: nameOf(id), suit: { glyph: KIND_GLYPH[c.kind] || "◆", name: (c.kind || "card").replace("_", " "), cls: "kind-" + (c.kind || "card") }, text: c.text || "", ...extra };
  };
  const cardName = (field, value) => (typeof value === "string" && (all[value] || value === "old-one") ? nameOf(value) : null);

  function table(ctx) {
    const v = ctx.view;
    const mine = ctx.seat;
    const own = v.hand || (ctx.over && mine !== null ? (v.hands || [])[mine] : null) || [];  // at the end: every hand, yours too
    const hand = own.map((id) => card(id, { key: `hand:${id}` }));
    const me = mine === null ? 0 : mine;
    const locations = (v.locations || []).map((loc) => {
      const side = (s) => el("div", { class: "side", "data-side": s },
        el("span", { class: "side-label", text: `${ctx.names[s]}: ${loc.sides[s].points} pts` }),
        row([...loc.sides[s].cultists.map((id) => card(id)), ...loc.sides[s].monsters.map((id) => card(id))], { small: true, empty: "—" }));
      const others = loc.sides.map((_, s) => s).filter((s) => s !== me);
      return el("div", { class: "location" + (v.hunter === loc.name ? " hunted" : ""), "data-key": `location:${loc.name}`, role: "group", "aria-label": nameOf(loc.name) },
        ...others.map(side),
        el("div", { class: "location-card" },
          el("b", { text: `${(all[loc.name] || {}).letter || ""} ${nameOf(loc.name)}` }),
          loc.facing !== null && loc.facing !== undefined ? el("span", { class: "tag", text: `faces ${ctx.names[loc.facing]}` }) : el("span", { class: "muted", text: "faces nobody" }),
          loc.old_one ? cardEl(card(loc.old_one), { small: true }) : null,
          v.hunter === loc.name ? el("span", { class: "tag hunter", text: "⚔ the Dark Hunter is here" }) : null),
        loc.sides[me] ? side(me) : null);
    });
    const board = el("div", { class: "rc-board" },
      el("div", { class: "board-info" }, stat("Actions", `${v.actions_taken || 0} of ${v.actions_allowed || 0}`),
        stat("Old Ones awake", (v.awake || []).map(nameOf).join(", ") || "none"),
        v.old_ones_in_deck_at && v.old_ones_in_deck_at.length ? stat("Old Ones in the Deck at", v.old_ones_in_deck_at.map((n) => `#${n + 1}`).join(", ")) : null),
      el("div", { class: "piles" }, pileEl("Cultist Deck", v.deck_size || 0, "deck"), pileEl("Monsters", v.monster_deck_size || 0), pileEl("Artifacts", v.artifact_deck_size || 0),
        el("div", { class: "valley", "data-key": "valley", role: "group", "aria-label": "the Valley" }, el("span", { class: "zone-title", text: "The Valley" }),
          row((v.valley || []).map((id, i, list) => card(id, { note: i === list.length - 1 ? "face up" : null })), { small: true, empty: "empty" }),
          !v.hunter ? el("span", { class: "tag hunter", text: "⚔ the Dark Hunter waits here" }) : null)),
      v.pending_power ? el("p", { class: "warning", text: `An Old One's power waits to be resolved.` }) : null,
      el("div", { class: "locations" }, locations),
      (v.discard || []).length ? el("details", { class: "zone" }, el("summary", { text: `Discarded (${v.discard.length})` }), row(v.discard.map((id) => card(id)), { small: true })) : null);

    function seat(n) {
      const counts = (v.hand_counts || [])[n] || {};
      const known = ((v.known_in_hand || [])[n] || []);
      const shown = ((v.hands || [])[n]);
      return [
        n === mine && !ctx.over ? null : el("span", { class: "muted", text: `Hand: ${counted(counts.cultists, "Cultist")}, ${counted(counts.monsters, "Monster")}, ${counted(counts.artifacts, "Artifact")}` }),
        shown && (n !== mine || ctx.over) ? row(shown.map((id) => card(id)), { small: true, cls: "revealed-hand" }) : known.length && n !== mine ? el("div", { class: "known" }, el("span", { class: "muted", text: "Known in hand: " }), row(known.map((id) => card(id)), { small: true })) : null,
      ];
    }
    const stats = (n) => [stat("Points", (v.points || [])[n] ?? 0), stat("Locations", (v.locations_facing || [])[n] ?? 0),
      stat("Artifacts", (v.artifacts_acquired || [])[n] ?? 0), stat("Monsters", (v.monsters_played || [])[n] ?? 0)];
    return { board, hand, handTitle: ctx.over ? "Your final hand" : "Your hand", seat, stats, phase: v.must_draw_from_deck ? "you must draw from the Cultist Deck" : "" };
  }

  function move(c, ctx) {
    const hunter = c.recall_hunter ? " and call the Dark Hunter home" : "";
    const target = c.target ? ` on ${nameOf(c.target)}` : "";
    switch (c.type) {
      case "draw_card": return c.source === "valley" ? { on: "valley", words: "Draw the Valley's card" } : { on: "deck", words: "Draw from the Cultist Deck" };
      case "play_cultist": return { on: `hand:${c.card}`, to: `location:${c.location}`, words: `Play ${nameOf(c.card)} at ${nameOf(c.location)}${hunter}` };
      case "play_to_valley": return { on: `hand:${c.card}`, to: "valley", words: `Play ${nameOf(c.card)} to the Valley; the Dark Hunter goes to ${nameOf(c.hunter_to)}` };
      case "play_monster": return { on: `hand:${c.card}`, to: `location:${c.location}`, words: `Play ${nameOf(c.card)} at ${nameOf(c.location)}${target}${hunter}` };
      case "play_artifact": return { on: `hand:${c.card}`, words: `Play ${nameOf(c.card)}${target}${c.location ? ` at ${nameOf(c.location)}` : ""}${hunter}` };
      case "resolve_power": return { on: null, words: `Resolve the Old One's power${c.target ? `: ${c.target === "home" ? "the Dark Hunter goes home" : nameOf(c.target)}` : ""}` };
      case "draw_owed_cards": return { on: "deck", words: "Draw the cards you are owed" };
      default: return { on: null, words: null };
    }
  }
  // How to win, in the rulebook's tie-break order: Locations (points instead once Azathoth woke), points,
  // artifacts acquired, Monsters played, the fewest cards in hand; a full tie and both lose.
  const REASONS = {
    locations: "the most Locations facing you wins",
    points: "tied on Locations: the most points wins",
    artifacts: "tied on Locations and points: the most artifacts acquired wins",
    monsters: "tied on Locations, points and artifacts: the most Monsters played wins",
    hand: "tied on everything else: the fewest cards in hand wins",
    tie: "a full tie: both lose",
  };
  const reason = (o) => {
    const azathoth = (o.details || {}).azathoth;
    const why = azathoth && o.reason === "points" ? "the most points wins" : REASONS[o.reason] || "";
    const words = (azathoth ? "Azathoth woke, so points count instead of Locations; " : "") + why;
    return words ? `${words.charAt(0).toUpperCase()}${words.slice(1)}.` : "";
  };
  return { cardName, table, move, reason, scoreLabel: "Points" };
}

function cap(s) { return s ? s.charAt(0).toUpperCase() + s.slice(1) : ""; }
