// Pocket Madness's table: the splayed deck (face-up cards readable, face-down ones as backs), the seven Portals
// with their numbers, owners and powers, each seat's melds under that seat, Madness per seat, the round and the
// last-turns warning. Your hand is grouped by Location (one card per Location, with how many you hold).

import { el } from "./render.js";
import { backEl, backs, cardEl, listWords, pips, row, stat, zone } from "./cards.js";

const GLYPHS = { 6: "♆", 7: "☄", 8: "❦", 9: "⚓", 10: "☥", 11: "☊", 12: "☠" };
const RUN = Object.keys(GLYPHS).map(Number);  // a run holds one card of each of the seven Locations

export function makeGame(game) {
  const data = game.card_data || {};
  const locations = {}, portals = {};
  for (const l of data.locations || []) locations[l.number] = l;
  for (const p of data.portals || []) portals[p.number] = p;
  const locName = (n) => (locations[n] || {}).name || `Location ${n}`;
  const location = (n, extra = {}) => ({ name: locName(n), value: n,
    suit: { glyph: GLYPHS[n] || "◆", name: `portal of ${(portals[n] || {}).name || n}`, cls: `loc-${n}` }, ...extra });

  function cardName(field, value) {
    if (["location", "card", "cards", "revealed", "hand", "hands", "deck", "face_down"].includes(field) && Number.isInteger(value)) return locName(value);
    if (field === "portal" && Number.isInteger(value)) return `the portal of ${(portals[value] || {}).name || value}`;
    return null;
  }

  function table(ctx) {
    const v = ctx.view;
    const mine = ctx.seat;
    const counts = {};
    const own = v.hand || (ctx.over && mine !== null ? (v.hands || [])[mine] : null) || [];  // at the end: every hand, yours too
    for (const n of own) counts[n] = (counts[n] || 0) + 1;
    const hand = Object.keys(counts).map(Number).sort((a, b) => a - b).map((n) => location(n, { key: `hand:${n}`, count: counts[n],
      text: `${counts[n]} in your hand; ${n} copies in the game.` }));

    const deck = (v.deck || []).map((c, i) => c.face_up && c.location !== undefined
      ? cardEl(location(c.location, { key: `deck:${i}`, note: `#${i + 1}` }), { small: true, clickable: true })
      : c.location !== undefined ? cardEl(location(c.location, { key: `deck:${i}`, faceDown: true, note: `#${i + 1}, face down` }), { small: true })
        : backEl(`face-down card, #${i + 1} in the deck`, `deck:${i}`, true));
    const portalCards = (v.portals || []).map((p) => {
      const owner = p.owner === null || p.owner === undefined ? "free" : `held by ${ctx.names[p.owner]}`;
      return cardEl({ key: `portal:${p.portal}`, name: p.name, value: p.portal, cls: "portal" + (p.owner === mine && mine !== null ? " owned" : ""),
        suit: { glyph: GLYPHS[p.portal] || "◆", name: locName(p.portal), cls: `loc-${p.portal}` },
        text: (portals[p.portal] || {}).text || "", note: owner }, { clickable: true });
    });
    const pending = v.pending ? zone(`Sealing ${v.pending.name}`,
      v.pending.target !== null && v.pending.target !== undefined ? el("p", { text: `Aimed at ${ctx.names[v.pending.target]}.` }) : null,
      v.pending.target_hand ? row(v.pending.target_hand.map((n, i) => location(n, { key: `peek:${n}`, note: i === 0 ? `${ctx.names[v.pending.target]}'s hand` : null })), { clickable: true, small: true }) : null) : null;
    const info = [stat("Round", v.round), stat("Deck", `${v.deck_size} (${v.face_down_in_deck} face down)`),
      stat("Madness supply", v.madness_supply), v.runs_this_round !== undefined ? stat("Next run gives", `${v.next_run_madness} Madness`) : null];
    const board = el("div", { class: "pm-board" },
      el("div", { class: "board-info" }, info),
      v.last_turns ? el("p", { class: "warning", text: `The deck is empty: last turns for ${listWords(v.last_turns.map((s) => ctx.names[s]))}.` }) : null,
      pending,
      zone("The portals", el("div", { class: "card-row portals" }, portalCards)),
      zone("The splayed deck (draw from the top, #1 first)", el("div", { class: "card-row deck-row", "data-key-group": "deck" }, deck.length ? deck : el("span", { class: "muted", text: "empty" }))),
      v.reason ? el("p", { class: "round-end", text: roundEnd(v, ctx) }) : null);

    function seat(n) {
      const melds = (v.melds || [])[n] || [];
      const shownHand = (v.hands || [])[n];
      const known = ((v.known_cards || [])[n] || []);
      return [
        n === mine && !ctx.over ? null : backs((v.hand_counts || [])[n] || 0),
        shownHand && (n !== mine || ctx.over) ? row(shownHand.map((c) => location(c)), { small: true, cls: "revealed-hand" })
          : known.length && n !== mine ? el("div", { class: "known" }, el("span", { class: "muted", text: "Known in hand: " }), row(known.map((c) => location(c)), { small: true })) : null,
        el("div", { class: "melds", "data-melds-of": n }, melds.length ? melds.map((m, i) => m.kind === "run"
          ? el("span", { class: "meld run", "data-meld": i, role: "img", "aria-label": `a run of 7 different Locations: ${listWords(RUN.map(locName))}` },
            el("span", { class: "meld-label", text: "Run of 7 Locations" }), el("span", { class: "run-glyphs", text: Object.values(GLYPHS).join("") }),
            el("span", { class: "run-names", text: RUN.map(locName).join(" · ") }))
          : el("span", { class: "meld set", "data-meld": i }, cardEl(location(m.location, { count: m.count, note: `set of ${m.count}` }), { small: true })))
          : el("span", { class: "muted", text: "no melds" })),
        ((v.discards || [])[n] || []).length ? el("div", { class: "discards" }, el("span", { class: "muted", text: "Discarded: " }), row(v.discards[n].map((c) => location(c)), { small: true })) : null,
      ];
    }
    const stats = (n) => [pips("Madness", (v.madness || [])[n] || 0, v.madness_limit || 10, "madness"),
      ...(v.portals || []).filter((p) => p.owner === n).map((p) => el("span", { class: "tag", text: `${GLYPHS[p.portal]} ${p.name}` }))];
    return { board, hand, handTitle: ctx.over ? "Your final hand" : "Your hand", seat, stats, prompt: phaseWords(v, ctx) };
  }

  function move(c, ctx) {
    const name = ctx.names;
    switch (c.type) {
      case "draw_cards": return { on: `deck:${c.count - 1}`, words: `Draw ${c.count} card${c.count === 1 ? "" : "s"} from the deck` };
      case "take_deck_card": return { on: `deck:${c.position}`, words: `Take card #${c.position + 1} of the deck` };
      case "meld_set": return { on: `hand:${c.location}`, words: `Meld a set of ${c.count} ${locName(c.location)}` };
      case "meld_run": return { on: null, words: "Publish your research: meld a run of 7 different Locations" };
      case "seal_portal": return { on: `portal:${c.portal}`, words: `Seal the portal of ${(portals[c.portal] || {}).name}: ${(portals[c.portal] || {}).text || ""}` };
      case "give_card": return { on: `hand:${c.location}`, to: `seat:${c.seat}`, words: `Give ${locName(c.location)} to ${name[c.seat]}` };
      case "take_card": return { on: `peek:${c.location}`, words: `Take ${locName(c.location)}` };
      case "look_at_hand": return { on: `seat:${c.seat}`, words: `Look at ${name[c.seat]}'s hand` };
      case "choose_first_player": return { on: `seat:${c.seat}`, words: `${name[c.seat]} starts the round` };
      case "end_turn": return { on: null, words: "End your turn" };
      case "stop_giving": return { on: null, words: "Give no more cards" };
      case "deal_next_round": return { on: null, words: "Deal the next round" };
      default: return { on: null, words: null };
    }
  }
  // How To Win: the round that takes a seat to 10 Madness ends the game; the fewest Madness wins.
  const reason = (o) => `A seat reached 10 Madness${(o.details || {}).rounds ? ` in round ${o.details.rounds}` : ""}: the fewest Madness wins.`;
  return { cardName, table, move, reason, scoreLabel: "Madness" };
}

function roundEnd(v, ctx) {
  const why = v.reason === "deck_exhausted" ? "the deck ran out" : v.ender !== null && v.ender !== undefined ? `${ctx.names[v.ender]} played out every card` : "it ended";
  const gained = (v.gained || []).map((g, n) => `${ctx.names[n]} +${g}`).join(", ");
  return `Round ${v.round} is over: ${why}. Madness gained: ${gained}.`;
}

// What the seat may do now, from its legal moves: the rulebook's actions, only those open to it.
const ASKS = {
  draw_cards: "draw 1–3 cards", take_deck_card: "take a card from the splayed deck", meld_set: "meld a set",
  meld_run: "publish a run", seal_portal: "seal a portal", end_turn: "end the turn", give_card: "give cards away",
  stop_giving: "stop giving", take_card: "take a card", look_at_hand: "look at a hand",
  choose_first_player: "choose who starts the next round", deal_next_round: "deal the next round",
};

function phaseWords(v, ctx) {
  const asks = [...new Set(ctx.legal.map((c) => ASKS[c.type]).filter(Boolean))];
  if (ctx.seat !== null && ctx.toAct.includes(ctx.seat) && asks.length) {
    return (v.pending ? `sealing ${v.pending.name}: ` : "") + listWords(asks).replace(/ and ([^,]+)$/, " or $1");
  }
  if (v.phase === "designating") return `${ctx.names[v.chooser]} chooses who starts the next round`;
  if (v.phase === "round_over") return "the round is over";
  if (v.pending) return `sealing ${v.pending.name}`;
  return "";
}
