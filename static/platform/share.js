// The room's "Copy link" button (lobby/room.html), the same for every game.
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
})();
