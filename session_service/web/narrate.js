// The log in sentences. An event's `text` ({template, args, plain}: API.md "Words and types") is drawn from its
// template, each seat and card argument by name so it can be styled; an event without it (a server from before
// the narration) gets a plain fallback sentence from its type and the fields the game's layout can name:
// never an id list or JSON.

import { el, human } from "./render.js";

const SEAT_FIELDS = ["seat", "to", "target", "from_seat", "to_seat", "holder", "winner", "captor", "active", "chooser", "ender",
  "giver", "receiver", "looted_by", "revealer", "claimant", "owner", "previous_owner", "influencer", "current", "opener"];
const NUMBER_FIELDS = ["count", "round", "points", "change", "sanity", "gained", "madness", "number", "turn_number", "size", "grave", "wall", "tree", "position", "rank"];
const SKIP = new Set(["game_id", "seats", "options", "players", "deck", "order", "face_down", "hand_0", "hand_1", "hand_2", "hand_3", "hand_4", "hand_5", "hand_6", "hand_7"]);

function argNode(arg, names) {
  if (arg === null || arg === undefined) return "";
  if (Array.isArray(arg)) {
    const parts = arg.map((a) => argNode(a, names));
    const out = [];
    parts.forEach((p, i) => { if (i) out.push(i === parts.length - 1 ? " and " : ", "); out.push(p); });
    return el("span", {}, out);
  }
  if (typeof arg === "object") {
    if ("seat" in arg) return el("span", { class: "who", text: arg.name || names[arg.seat] || "a seat" });
    if ("card" in arg) return el("span", { class: "what", text: arg.name || "a card" });
    if ("name" in arg) return el("span", { class: "what", text: String(arg.name) });
    return "";
  }
  return String(arg);
}

// The sentence of one event as nodes: the template with its arguments, or the fallback.
export function sentence(event, names, game) {
  const text = event.text;
  if (text && typeof text === "object" && typeof text.template === "string") {
    const out = [];
    text.template.split(/(\{\w+\})/).forEach((piece) => {
      const m = /^\{(\w+)\}$/.exec(piece);
      out.push(m ? argNode((text.args || {})[m[1]], names) : piece);
    });
    return out;
  }
  if (text && typeof text === "string") return [text];
  return fallback(event, names, game);
}

function fallback(event, names, game) {
  const data = event.data || {};
  const subject = Number.isInteger(data.seat) ? data.seat : null;  // who did it, never who caused the batch
  const out = [];
  if (subject !== null && names[subject]) out.push(el("span", { class: "who", text: names[subject] }), ": ");
  out.push(human(event.type).toLowerCase().replace(/^./, (c) => c.toUpperCase()));
  const details = [];
  for (const [key, value] of Object.entries(data)) {
    if (SKIP.has(key) || key === "seat" && value === subject) continue;
    const named = nameOf(key, value, names, game);
    if (named) details.push(`${human(key).toLowerCase()} ${named}`);
  }
  if (details.length) out.push(" — " + details.slice(0, 4).join("; "));
  return out;
}

function nameOf(key, value, names, game) {
  if (value === null || value === undefined || typeof value === "boolean") return null;
  if (SEAT_FIELDS.includes(key) && Number.isInteger(value)) return names[value] || null;
  if (SEAT_FIELDS.includes(key) && Array.isArray(value) && value.every(Number.isInteger) && value.length <= names.length) return value.map((s) => names[s]).join(", ");
  if (Array.isArray(value)) {
    if (!value.length || value.length > 12) return null;
    const each = value.map((v) => (typeof v === "object" ? null : game.cardName(key, v)));
    return each.every(Boolean) ? each.join(", ") : null;
  }
  if (typeof value === "object") return null;
  const card = game.cardName(key, value);
  if (card) return card;
  if (typeof value === "number" && NUMBER_FIELDS.includes(key)) return String(value);
  if (typeof value === "string" && value.length <= 40 && !/^[0-9a-f]{16,}$/.test(value)) return human(value).toLowerCase();
  return null;
}

// A sentence starts with a capital, whatever its first argument is ("a card was …", a seat named in lower case).
function capitalised(parts) {
  const first = parts.find((p) => (typeof p === "string" ? p : p.textContent || "") !== "");
  if (typeof first === "string") parts[parts.indexOf(first)] = first.charAt(0).toUpperCase() + first.slice(1);
  else if (first && first.firstChild && first.firstChild.nodeType === Node.TEXT_NODE) first.firstChild.textContent = first.firstChild.textContent.replace(/^\s*./, (c) => c.toUpperCase());
  return parts;
}

// The log list: one numbered entry per event (the list numbers it, once), oldest first, all kept.
export function logEntry(event, names, game) {
  return el("li", { "data-version": event.version, value: String(event.version) }, capitalised(sentence(event, names, game)));
}
