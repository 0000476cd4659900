// htmx leaves error responses unswapped; the preview's 429 carries a polite message to show.
document.addEventListener("htmx:beforeSwap", function (event) {
  if (event.detail.xhr.status === 429) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});

// A wide picture, formula or table scrolls sideways inside its own frame on a phone. A frame that
// scrolls and holds nothing focusable must take the focus itself, or a keyboard cannot scroll it
// (WCAG 2.1.1; axe's scrollable-region-focusable): give it a tab stop only while it overflows.
(function () {
  var FRAMES = ".problem__picture, .verdict__picture, math, .math-display, .problem__statement table, .verdict__explanation table";
  function mark() {
    document.querySelectorAll(FRAMES).forEach(function (el) {
      var scrolls = el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible";
      if (scrolls && !el.hasAttribute("tabindex")) {
        el.setAttribute("tabindex", "0");
        el.dataset.scrollFrame = "";
      } else if (!scrolls && "scrollFrame" in el.dataset) {
        el.removeAttribute("tabindex");
        delete el.dataset.scrollFrame;
      }
    });
  }
  var pending;
  function later() { clearTimeout(pending); pending = setTimeout(mark, 100); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mark);
  else mark();
  window.addEventListener("resize", later);
  document.addEventListener("htmx:afterSettle", mark);
})();
