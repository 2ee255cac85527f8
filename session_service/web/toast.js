// The page's one passing message (an error, a notice), shown for a few seconds at the foot of the screen. Its own
// module so the pages that show one need not import the app that routes to them (no import circle).

export function toast(message, kind = "info") {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.className = "toast " + kind;
  box.dataset.count = String(Number(box.dataset.count || 0) + 1);
  box.classList.remove("hidden");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => box.classList.add("hidden"), 6000);
  box.setAttribute("role", kind === "error" ? "alert" : "status");
}
