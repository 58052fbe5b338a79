// Under One Sky's few lines of browser code. Everything else is server-rendered HTML.
(() => {
  "use strict";
  // A push that re-renders the same step (someone joined, a seat changed) must not drop
  // the tile you picked beside the board, or the tile you picked to move.
  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    const form = document.getElementById("uos-play");
    const incoming = event.detail.fragment?.querySelector?.("#uos-play");
    if (!form || !incoming) return;
    const version = (el) => el.querySelector("input[name=version]")?.value;
    if (version(form) !== version(incoming)) return;  // a new step: a fresh choice
    for (const name of ["tile", "origin"]) {
      const picked = form.querySelector(`input[name=${name}]:checked`);
      const same = picked && incoming.querySelector(`input[name=${name}][value="${picked.value}"]`);
      if (same) same.setAttribute("checked", "");
    }
  });
})();
