// The room's "Invite friends" (lobby/room.html), the same for every game: its "Copy link"
// button, and folding it away when a game starts.
(() => {
  "use strict";
  document.addEventListener("click", (event) => {
    const copy = event.target.closest("[data-copy]");
    if (!copy) return;
    const field = document.querySelector(copy.dataset.copy);
    const done = () => {
      copy.textContent = "Copied!";
      setTimeout(() => { copy.textContent = "Copy link"; }, 2000);
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(field.value).then(done);
    else { field.select(); document.execCommand("copy"); done(); }
  });

  // A game starts (or a rematch does) while the room is open: "Invite friends" folds away,
  // as it is on a page opened while a game runs, leaving the board and the seats in view.
  // Every game's board is pushed as #board: before the first game it is the room's empty
  // one, and an ended game's shows its result in .result. Only that swap folds it: once a
  // game runs, the board being replaced is that game's, so a later push (a late one from
  // the start included) leaves a reopened "Invite friends" open.
  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    const before = event.detail.target;
    if (before?.id !== "board") return;
    const after = event.detail.fragment?.querySelector?.("#board");
    const starting = before.classList.contains("empty") || before.querySelector(".result");
    if (starting && after && !after.querySelector(".result")) {
      document.getElementById("share")?.removeAttribute("open");
      // A phone scrolled down to its seat or the host's options when the game starts: the
      // board comes back into view, where its turn line and its controls are.
      requestAnimationFrame(() => {
        const board = document.getElementById("board");
        if (board && board.getBoundingClientRect().top < 0) board.scrollIntoView({ block: "start" });
      });
    }
  });
})();
