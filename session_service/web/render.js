// The page's small helpers: build an element (no HTML strings: the CSP forbids inline anything, and text is
// always text), turn a key into words, and name a person with a link to their profile.

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function human(key) {
  const text = String(key).replace(/[_-]+/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// A person's name, linking to their profile when a player holds it (a guest's or an AI seat's name is only text).
export const profileLink = (player, name) => player
  ? el("a", { href: `#/player/${encodeURIComponent(player)}`, class: "profile-link", text: name })
  : document.createTextNode(name);
