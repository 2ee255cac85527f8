// Cards and the small pieces every table is drawn from. A card is a plain description ({key, name, value, suit,
// text}); a game's layout module makes them from its view and the catalogue's card data, and this draws them.
// A card that may be clicked is a <button> whose accessible name starts with the card's name; any other card is
// an image with the same name. Its text is on the card itself (never only on hover).

import { el } from "./render.js";

// {key, name, value?, suit?: {glyph, name, cls}, text?, count?, faceDown?, note?}
export function cardEl(card, { clickable = false, small = false } = {}) {
  const value = card.value === undefined || card.value === null || card.value === "" ? null : String(card.value);
  const suit = card.suit || null;
  const label = [card.name, value !== null ? `value ${value}` : null, suit ? suit.name : null,
    card.count > 1 ? `${card.count} cards` : null, card.note || null].filter(Boolean).join(", ");
  const parts = [
    el("span", { class: "card-head" },
      value !== null ? el("b", { class: "value", text: value }) : null,
      suit ? el("span", { class: "glyph", text: suit.glyph }) : null,
      card.count > 1 ? el("span", { class: "times", text: `×${card.count}` }) : null),
    el("span", { class: "card-name", text: card.name }),
    suit && suit.name && !small ? el("span", { class: "suit", text: suit.name }) : null,
    card.text && !small ? el("span", { class: "card-text", text: card.text }) : null,
    card.note ? el("span", { class: "card-note", text: card.note }) : null,
  ];
  const cls = ["card", suit ? suit.cls : "", card.cls || "", small ? "small" : "", card.faceDown ? "face-down" : ""].join(" ");
  const attrs = { class: cls, "data-key": card.key || null, "data-card": card.name, title: card.text ? `${card.name}: ${card.text}` : null };
  if (clickable) return el("button", { type: "button", ...attrs, "aria-label": label }, parts);
  return el("span", { ...attrs, role: "img", "aria-label": label }, parts);
}

// A face-down card: its back, named for what it is ("a face-down card", "your card, face down").
export function backEl(label = "a face-down card", key = null, clickable = false) {
  const attrs = { class: "card back", "data-key": key, "aria-label": label };
  return clickable ? el("button", { type: "button", ...attrs })
    : el("span", { ...attrs, role: "img" });
}

// A count of cards nobody may see as a short fan of backs and the number.
export function backs(count, what = "card") {
  const fan = el("span", { class: "fan", role: "img", "aria-label": `${count} ${what}${count === 1 ? "" : "s"}, face down` });
  for (let i = 0; i < Math.min(count, 6); i++) fan.append(el("span", { class: "mini-back" }));
  fan.append(el("span", { class: "fan-count", text: String(count) }));
  return fan;
}

// A pile on the table (the deck, a draw pile): a back with its size (an empty place once it is used up), clickable
// when a move starts there.
export function pileEl(label, count, key = null) {
  return el("span", { class: "pile", "data-key": key, role: key ? null : "img", "aria-label": `${label}: ${count} card${count === 1 ? "" : "s"}` },
    el("span", { class: "card back" + (count ? "" : " empty") }), el("span", { class: "pile-label", text: `${label} · ${count}` }));
}

export function row(cards, opts = {}) {
  return el("div", { class: "card-row" + (opts.cls ? " " + opts.cls : "") }, cards.length ? cards.map((c) => c instanceof Node ? c : cardEl(c, opts))
    : el("span", { class: "muted", text: opts.empty || "none" }));
}

export function zone(title, ...children) {
  return el("section", { class: "zone" }, el("h3", { class: "zone-title", text: title }), ...children);
}

export function stat(label, value, cls = "") {
  return el("span", { class: "stat " + cls }, el("span", { class: "stat-label", text: label + " " }), el("b", { text: String(value) }));
}

// Sanity, Madness and the like as pips: filled up to value, out of max.
export function pips(label, value, max, cls = "") {
  const box = el("span", { class: "pips " + cls, role: "img", "aria-label": `${label} ${value} of ${max}` },
    el("span", { class: "stat-label", text: label + " " }));
  for (let i = 0; i < max; i++) box.append(el("span", { class: "pip" + (i < value ? " on" : "") }));
  box.append(el("b", { text: ` ${value}` }));
  return box;
}

// Words for a list: "A, B and C".
export function listWords(items) {
  const list = items.filter((x) => x !== null && x !== undefined && x !== "");
  if (list.length <= 1) return list.join("");
  return list.slice(0, -1).join(", ") + " and " + list[list.length - 1];
}
