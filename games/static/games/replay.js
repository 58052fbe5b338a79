// The replay's jump list goes to the chosen step as soon as it changes. A script file, not
// an inline onchange: the Content-Security-Policy runs only the site's own script files.
for (const select of document.querySelectorAll("select[data-submit-on-change]")) {
  select.addEventListener("change", () => select.form.submit());
}
