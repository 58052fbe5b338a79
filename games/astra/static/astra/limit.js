// Astra's card-limit panel (U6, L1): "Keep the ticked cards" is enabled only when exactly
// the card limit is ticked, and the line above it says how many are ticked. The server
// judges the discard anyway; this only saves a refused press. Delegated, so it works on
// every board htmx swaps in.
(function () {
  "use strict";
  function update(form) {
    const keep = Number(form.dataset.keep);
    const boxes = form.querySelectorAll('input[type="checkbox"]');
    const ticked = Array.from(boxes).filter((box) => box.checked).length;
    const button = form.querySelector('button[type="submit"]');
    const count = form.querySelector(".ast-count");
    if (button) button.disabled = ticked !== keep;
    if (count) {
      const need = ticked > keep ? `untick ${ticked - keep}` : ticked < keep ? `tick ${keep - ticked} more` : "ready";
      count.textContent = `Ticked: ${ticked} of ${boxes.length}: ${need}.`;
    }
  }
  document.addEventListener("change", (event) => {
    const form = event.target.closest && event.target.closest("#ast-discard");
    if (form) update(form);
  });
  document.addEventListener("htmx:load", (event) => {
    const form = event.target.querySelector && event.target.querySelector("#ast-discard");
    if (form) update(form);
  });
})();
