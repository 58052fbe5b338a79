// Look at the Stars in the browser (U9): arrow keys move the focus over the board's points
// (Enter or Space taps the focused point, as any button), R turns the ghost, Backspace
// undoes, Escape unselects. Every tap is a request the server answers with the whole
// drawing area (U1); a refused request (a full room, a closed round) keeps the area as it
// was and shows the notice instead of emptying it.
(() => {
  "use strict";
  const GRID = ".lats-drafting .lats-points-grid";
  const COLUMNS = 10;

  function points(grid) {
    return [...grid.children];  // 110 cells, row 11 first, columns a..j; cut corners are spans
  }

  function move(grid, from, dx, dy) {
    const cells = points(grid);
    let i = cells.indexOf(from);
    for (let step = 0; step < 12; step++) {
      const column = (i % COLUMNS) + dx;
      const row = Math.floor(i / COLUMNS) + dy;
      if (column < 0 || column >= COLUMNS || row < 0 || row * COLUMNS >= cells.length) return;
      i = row * COLUMNS + column;
      if (cells[i].tagName === "BUTTON") {
        cells[i].focus();
        return;
      }
    }
  }

  function press(value) {
    const button = document.querySelector(`.lats-drafting button[name="do"][value="${value}"]`);
    if (button && !button.disabled) button.click();
  }

  const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target.closest && target.closest("input, select, textarea")) return;
    const grid = target.closest ? target.closest(GRID) : null;
    if (grid && ARROWS[event.key]) {
      event.preventDefault();
      move(grid, target, ...ARROWS[event.key]);
      return;
    }
    if (!document.querySelector(".lats-drafting")) return;
    if (event.key === "r" || event.key === "R") press("turn");
    else if (event.key === "Backspace") { event.preventDefault(); press("undo"); }
    else if (event.key === "Escape") {
      const form = document.getElementById("lats-draft");
      if (form) htmx.ajax("GET", form.getAttribute("hx-get"), {
        source: form, target: form.getAttribute("hx-target"), swap: "innerHTML",
        values: { do: "cancel" },
      });
    }
  });

  // Keep the focus on the same point after a tap's answer replaces the area.
  let focused = null;
  document.addEventListener("htmx:beforeRequest", (event) => {
    const active = document.activeElement;
    focused = active && active.dataset ? active.dataset.point || null : null;
  });
  document.addEventListener("htmx:beforeSwap", (event) => {
    const area = event.detail.target;
    if (area && area.classList && area.classList.contains("lats-drafting") && event.detail.xhr.status >= 400) {
      // The notice (swapped out of band) says why; the drawing stays as it was.
      event.detail.target = document.getElementById("lats-sink") || area;
      if (event.detail.target === area) event.detail.shouldSwap = false;
    }
  });
  document.addEventListener("htmx:afterSwap", (event) => {
    if (!focused) return;
    const again = document.querySelector(`${GRID} [data-point="${focused}"]`);
    if (again) again.focus();
  });
})();
