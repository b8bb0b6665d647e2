// Applies the saved light/dark choice before the page paints (no flash).
(function () {
  document.documentElement.classList.add("js");  // the phone menu button only shows where script runs
  try {
    var saved = localStorage.getItem("memwiki-theme");
    if (saved === "light" || saved === "dark") {
      document.documentElement.setAttribute("data-theme", saved);
    }
  } catch (e) { /* storage may be blocked on file:// */ }
})();
