// The screen-reader announcer, the same for every game: turn changes, the clue and the
// result, said politely. A game's status area (#status) marks what is news with the classes
// .result, .turn and .clue. Pushes replace the whole board, live regions inside it
// included, so the one that speaks (#announcer) stays outside it (lobby/room.html).
(() => {
  "use strict";
  function summary() {
    const status = document.getElementById("status");
    if (!status) return "";
    return [".result", ".turn", ".clue"]
      .map((part) => status.querySelector(part)?.textContent.replace(/\s+/g, " ").trim())
      .filter(Boolean)
      .join(". ");
  }

  let said = summary();  // what the page showed when it opened is not news
  function announce() {
    const out = document.getElementById("announcer");
    const text = summary();
    if (out && text && text !== said) out.textContent = text;
    said = text;
  }

  setInterval(announce, 250);
  document.addEventListener("htmx:load", announce);
})();
