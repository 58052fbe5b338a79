// The step clock's countdown, the same for every game (games/templates/games/countdown.html).
// The server sends its deadline and its own "now", so a client clock that is off does not
// matter. At zero it asks the server to check (the server decides by its own clock).
(() => {
  "use strict";
  const offsets = new WeakMap();

  function tick() {
    const el = document.getElementById("countdown");
    if (!el) return;
    if (!offsets.has(el)) {
      offsets.set(el, Date.parse(el.dataset.now) - Date.now());
    }
    const left = Date.parse(el.dataset.deadline) - (Date.now() + offsets.get(el));
    const seconds = Math.max(0, Math.ceil(left / 1000));
    const shown = el.querySelector(".countdown-seconds");
    if (shown && shown.textContent !== String(seconds)) shown.textContent = String(seconds);
    el.classList.toggle("urgent", seconds <= 10);
    const announce = el.querySelector(".countdown-announce");
    if (announce && [30, 10, 5].includes(seconds) && announce.dataset.said !== String(seconds)) {
      announce.dataset.said = String(seconds);
      announce.textContent = `${seconds} seconds left`;
    }
    if (left <= 0 && !el.dataset.asked && window.htmx) {
      el.dataset.asked = "1";
      window.htmx.ajax("POST", el.dataset.tick, { source: el, swap: "none" });
    }
  }

  setInterval(tick, 250);
  document.addEventListener("htmx:afterSettle", tick);
})();
